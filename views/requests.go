package views

import (
	"strconv"

	"github.com/mcp-playground/playground/backend"
)

// formatFloat writes a number as briefly as it reads exactly.
func formatFloat(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

// sampleModel is the model name a sampling reply starts with: what the
// person typed, else the server's first hint, else the default.
func sampleModel(in InputView) string {
	if v := in.Values["model"]; v != "" {
		return v
	}
	if mp := in.Sample.ModelPreferences; mp != nil && len(mp.Hints) > 0 && mp.Hints[0].Name != "" {
		return mp.Hints[0].Name
	}
	return backend.DefaultSampleModel
}
