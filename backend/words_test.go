package backend_test

import (
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
)

// TestFormatDuration: one format for every duration a page or a command
// shows, whatever its size.
func TestFormatDuration(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{0, ""},
		{850 * time.Microsecond, "850 µs"},
		{3 * time.Millisecond, "3.0 ms"},
		{9700300 * time.Microsecond / 1000, "9.7 ms"},
		{9700300 * time.Microsecond, "9.700 s"},
		{17211 * time.Millisecond, "17.211 s"},
		{125 * time.Second, "2m5s"},
	} {
		if got := backend.FormatDuration(tt.d); got != tt.want {
			t.Errorf("FormatDuration(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}
