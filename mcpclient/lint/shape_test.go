package lint

import (
	"testing"
)

// TestShapesKeepVerdicts: after a valid value's shape is remembered, a
// value that differs from it only where the schema looks (a named string,
// a bounded number) is still judged, and one that differs elsewhere is
// valid without being judged again.
func TestShapesKeepVerdicts(t *testing.T) {
	cases := []struct {
		version, def     string
		valid, invalid   string
		sameShapeAsValid string
	}{
		{"2025-11-25", "LoggingMessageNotification",
			`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"a"}}`,
			`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"verbose","data":"a"}}`,
			`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"something else"}}`},
		{"2025-11-25", "CallToolResult",
			`{"content":[{"type":"text","text":"a","annotations":{"priority":1}}]}`,
			`{"content":[{"type":"text","text":"a","annotations":{"priority":5}}]}`,
			`{"content":[{"type":"text","text":"b","annotations":{"priority":1}}]}`},
		{"2025-11-25", "CallToolResult",
			`{"content":[{"type":"text","text":"a","annotations":{"priority":0}}]}`,
			`{"content":[{"type":"text","text":"a","annotations":{"priority":-1}}]}`,
			`{"content":[{"type":"text","text":"z","annotations":{"priority":0}}]}`},
		{"2025-11-25", "CallToolResult",
			`{"content":[{"type":"text","text":"a"}]}`,
			`{"content":[{"type":"video","text":"a"}]}`,
			`{"content":[{"type":"text","text":"another text"}]}`},
		{"2025-11-25", "ProgressNotification",
			`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":3,"progress":5}}`,
			`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":3,"progress":"5"}}`,
			`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":6}}`},
		{"2024-11-05", "CallToolResult",
			`{"content":[{"type":"image","data":"aGk=","mimeType":"image/png"}]}`,
			`{"content":[{"type":"image","data":7,"mimeType":"image/png"}]}`,
			`{"content":[{"type":"image","data":"not base64 at all","mimeType":"image/png"}]}`},
	}
	for _, tc := range cases {
		s := specOf(tc.version)
		if s == nil || s.shapes == nil {
			t.Fatalf("version %s: no spec, or shapes off", tc.version)
		}
		check := func(body string, wantValid bool) {
			t.Helper()
			v, ok := decode([]byte(body))
			if !ok {
				t.Fatalf("%s is not JSON", body)
			}
			if bad, invalid := s.validate(tc.def, v); invalid == wantValid {
				t.Errorf("%s against %s: invalid %v (%+v), want %v", body, tc.def, invalid, bad, !wantValid)
			}
		}
		check(tc.valid, true)
		check(tc.valid, true) // now from its shape
		check(tc.invalid, false)
		check(tc.sameShapeAsValid, true)
		if v1, _ := decode([]byte(tc.valid)); s.shapes.shapeOf(tc.def, v1) != s.shapes.shapeOf(tc.def, mustDecode(t, tc.sameShapeAsValid)) {
			t.Errorf("%s and %s have different shapes", tc.valid, tc.sameShapeAsValid)
		}
	}
}

func mustDecode(t *testing.T, body string) any {
	t.Helper()
	v, ok := decode([]byte(body))
	if !ok {
		t.Fatalf("%s is not JSON", body)
	}
	return v
}

// TestEverySchemaKeepsShapes: every embedded version's schema uses only
// the keywords shapes keep, so none is validated in full every time.
func TestEverySchemaKeepsShapes(t *testing.T) {
	entries, err := schemaFiles.ReadDir("schema")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		v := e.Name()[:len(e.Name())-len(".json")]
		if s := specOf(v); s == nil || s.shapes == nil {
			t.Errorf("version %s: no spec, or a keyword shapes do not keep", v)
		}
	}
}
