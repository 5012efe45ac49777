package views

import "testing"

func TestPrettyJSONHead(t *testing.T) {
	whole := []string{
		`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a \"quoted\" {brace}, [bracket]: colon\\"}],"isError":false}}`,
		`{"a":[],"b":{},"c":[1,2,{"d":null}],"e":"x"}`,
		"  {\n \"spaced\" :\t[ 1 , 2 ] }",
		`[{"x":true},[[]],"s"]`,
		`{}`,
	}
	for _, body := range whole {
		if got, want := prettyJSONHead(body), prettyJSON([]byte(body)); got != want {
			t.Errorf("prettyJSONHead(%s) =\n%s\nwant, as prettyJSON gives:\n%s", body, got, want)
		}
	}
	cut := []struct{ name, head, want string }{
		{"cut in a string", `{"a":{"b":"hello wor`, "{\n  \"a\": {\n    \"b\": \"hello wor"},
		{"cut after an escape", `["x\`, "[\n  \"x\\"},
		{"cut after a comma", `[1,`, "[\n  1,\n  "},
		{"not JSON", `this is not json {{{`, `this is not json {{{`},
		{"stderr text", "panic: boom\n", "panic: boom\n"},
		{"empty", "", ""},
	}
	for _, tt := range cut {
		t.Run(tt.name, func(t *testing.T) {
			if got := prettyJSONHead(tt.head); got != tt.want {
				t.Errorf("prettyJSONHead(%q) = %q, want %q", tt.head, got, tt.want)
			}
		})
	}
}

func TestTextHead(t *testing.T) {
	tests := []struct {
		name string
		body string
		n    int
		want string
	}{
		{"short body whole", "abc", 10, "abc"},
		{"cut", "abcdef", 3, "abc"},
		{"a split character is dropped", "ab€", 4, "ab"}, // € is 3 bytes
		{"a whole character is kept", "ab€x", 5, "ab€"},
		{"invalid bytes are replaced", "a\xffb", 10, "a\uFFFDb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := textHead([]byte(tt.body), tt.n); got != tt.want {
				t.Errorf("textHead(%q, %d) = %q, want %q", tt.body, tt.n, got, tt.want)
			}
		})
	}
}

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int]string{0: "0 bytes", 812: "812 bytes", 4096: "4 KiB", 20 << 10: "20 KiB", 1536: "1.5 KiB", 7 << 20: "7 MiB", 7<<20 + 1<<19: "7.5 MiB"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestUnescapeMarkup(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"markup escapes", `"\u003cb\u003ex\u003c/b\u003e \u0026 y"`, `"<b>x</b> & y"`},
		{"upper-case hex", `"\u003Cb\u003E"`, `"<b>"`},
		{"other escapes stay", `"\u00e9 \n \" \u2028"`, `"\u00e9 \n \" \u2028"`},
		{"an escaped backslash is not an escape", `"\\u003c"`, `"\\u003c"`},
		{"cut escape", `"\u003`, `"\u003`},
		{"nothing to do", `{"a":1}`, `{"a":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unescapeMarkup(tt.in); got != tt.want {
				t.Errorf("unescapeMarkup(%s) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}
