package report

import (
	"encoding/json"
	"fmt"
	"io"
)

// writeJSON writes a summary or a comparison as indented JSON.
func writeJSON(w io.Writer, s any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return fmt.Errorf("write json: %w", err)
	}
	return nil
}
