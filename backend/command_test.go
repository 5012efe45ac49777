package backend_test

import (
	"slices"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		wantErr string
	}{
		{"words", "node  dist/index.js\tstdio", []string{"node", "dist/index.js", "stdio"}, ""},
		{"single quotes", `sh -c 'echo "hi" \ there'`, []string{"sh", "-c", `echo "hi" \ there`}, ""},
		{"double quotes", `say "a \"b\" \\ \$x \n"`, []string{"say", `a "b" \ $x \n`}, ""},
		{"backslashes", `a\ b c\\d \'e`, []string{"a b", `c\d`, "'e"}, ""},
		{"adjacent parts join", `pre'fix'"mid"post`, []string{"prefixmidpost"}, ""},
		{"empty quoted word", `cmd '' ""`, []string{"cmd", "", ""}, ""},
		{"line continuation", "cmd \\\narg", []string{"cmd", "arg"}, ""},
		{"nothing expanded", `echo $HOME ~ *`, []string{"echo", "$HOME", "~", "*"}, ""},
		{"unterminated single", `a 'b`, nil, "unterminated single quote"},
		{"unterminated double", `a "b\"`, nil, "unterminated double quote"},
		{"trailing backslash", `a \`, nil, "backslash at the end"},
		{"blank", "  \t", nil, "no command given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := backend.SplitCommand(tt.in)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("SplitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
		})
	}
}
