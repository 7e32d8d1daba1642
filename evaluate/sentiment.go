package evaluate

import (
	"strings"
	"unicode"
)

// sentimentLexicon gives words a valence from -3 (very negative) to +3
// (very positive). It is small on purpose: it covers how users of a support
// or coding assistant say they are pleased or not, and nothing else, so
// that its verdicts can be read and predicted.
func sentimentValence(word string) int {
	switch word {
	case "perfect", "excellent", "amazing", "awesome", "fantastic", "wonderful", "brilliant", "love", "lifesaver", "superb":
		return 3
	case "thanks", "thank", "great", "helpful", "solved", "fixed", "works", "worked", "working", "appreciate", "appreciated",
		"glad", "happy", "nice", "resolved", "clear", "exactly":
		return 2
	case "good", "ok", "okay", "fine", "cool", "better", "useful", "right", "correct", "understand", "makes", "sense":
		return 1
	case "hmm", "unclear", "slow", "still", "again", "wrong", "problem", "issue", "confusing", "confused", "unsure":
		return -1
	case "bad", "broken", "error", "fails", "failed", "frustrated", "frustrating", "annoying", "annoyed", "disappointed",
		"unhelpful", "difficult", "worse", "ridiculous", "pointless":
		return -2
	case "terrible", "awful", "useless", "horrible", "hate", "angry", "furious", "worst", "waste", "garbage", "nonsense":
		return -3
	}
	return 0
}

// negator reports words that flip the valence of the next two words ("not
// helpful", "don't work", "never fixed").
func negator(word string) bool {
	switch word {
	case "not", "no", "never", "don't", "doesn't", "didn't", "isn't", "wasn't", "aren't", "won't", "can't", "cannot", "nothing", "neither", "nor", "without":
		return true
	}
	return false
}

// sentiment returns the positive and negative valence of text: each
// lexicon word adds its valence, flipped when one of the two words before
// it is a negator.
func sentiment(text string) (pos, neg float64) {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '’'
	})
	for i, w := range words {
		w = strings.ReplaceAll(w, "’", "'")
		v := sentimentValence(w)
		if v == 0 {
			continue
		}
		for k := max(0, i-2); k < i; k++ {
			if negator(strings.ReplaceAll(words[k], "’", "'")) {
				v = -v
				break
			}
		}
		if v > 0 {
			pos += float64(v)
		} else {
			neg -= float64(v)
		}
	}
	return pos, neg
}
