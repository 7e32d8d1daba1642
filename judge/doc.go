// Package judge reaches verdicts. It has two parts:
//
//   - [Judge], the LLM-as-judge: it builds the evaluation prompt, asks an
//     llm.Model for a structured verdict, parses what comes back robustly,
//     applies the scenario's expected form (yes/no, score
//     threshold or free text), samples several times when asked and caches
//     verdicts (in an llm.Cache).
//   - [Strategy], the judgment strategies that turn many [Outcome] values into
//     one [Decision]. They are plugin values in a [registry.Registry] ([NewRegistry]
//     holds the built-ins) that a host program extends exactly as the
//     built-ins are registered; [Decide] applies the rules every strategy
//     shares. Nothing is registered by package initialisation.
//
// The model client the judge talks through (and agents and the simulated
// user too) is package llm; llm/llmtest serves a scripted, in-process
// OpenAI-compatible endpoint so that all of this can be tested without the
// network.
package judge
