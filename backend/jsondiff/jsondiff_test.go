package jsondiff_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcp-playground/playground/backend/jsondiff"
)

func TestDiff(t *testing.T) {
	tests := []struct {
		name     string
		old, new string
		ignore   []string
		want     []jsondiff.Change
	}{
		{name: "equal objects in another key order", old: `{"a":1,"b":[1,2]}`, new: `{"b":[1,2],"a":1.0}`},
		{name: "changed scalar", old: `{"a":"x"}`, new: `{"a":"y"}`,
			want: []jsondiff.Change{{Path: "/a", Kind: jsondiff.Changed, Old: raw(`"x"`), New: raw(`"y"`)}}},
		{name: "added and removed keys", old: `{"a":1,"c":true}`, new: `{"b":null,"c":true}`,
			want: []jsondiff.Change{
				{Path: "/a", Kind: jsondiff.Removed, Old: raw(`1`)},
				{Path: "/b", Kind: jsondiff.Added, New: raw(`null`)},
			}},
		{name: "array by index", old: `[1,2,3]`, new: `[1,5]`,
			want: []jsondiff.Change{
				{Path: "/1", Kind: jsondiff.Changed, Old: raw(`2`), New: raw(`5`)},
				{Path: "/2", Kind: jsondiff.Removed, Old: raw(`3`)},
			}},
		{name: "type change is one change", old: `{"a":{"x":1}}`, new: `{"a":[1]}`,
			want: []jsondiff.Change{{Path: "/a", Kind: jsondiff.Changed, Old: raw(`{"x":1}`), New: raw(`[1]`)}}},
		{name: "nested path with escaping", old: `{"a/b":{"m~n":1}}`, new: `{"a/b":{"m~n":2}}`,
			want: []jsondiff.Change{{Path: "/a~1b/m~0n", Kind: jsondiff.Changed, Old: raw(`1`), New: raw(`2`)}}},
		{name: "wildcard ignores every element's field", ignore: []string{"/content/*/text"},
			old:  `{"content":[{"type":"text","text":"t1"},{"type":"text","text":"t2"}]}`,
			new:  `{"content":[{"type":"text","text":"u1"},{"type":"image","text":"u2"}]}`,
			want: []jsondiff.Change{{Path: "/content/1/type", Kind: jsondiff.Changed, Old: raw(`"text"`), New: raw(`"image"`)}}},
		{name: "ignored subtree, added or removed", ignore: []string{"/_meta"},
			old: `{"_meta":{"t":1},"a":1}`, new: `{"a":1}`},
		{name: "escaped pattern", ignore: []string{"/a~1b"}, old: `{"a/b":1}`, new: `{"a/b":2}`},
		{name: "empty pointer ignores everything", ignore: []string{""}, old: `1`, new: `2`},
		{name: "invalid pattern is skipped", ignore: []string{"a"}, old: `{"a":1}`, new: `{"a":2}`,
			want: []jsondiff.Change{{Path: "/a", Kind: jsondiff.Changed, Old: raw(`1`), New: raw(`2`)}}},
		{name: "root scalar", old: `"x"`, new: `null`,
			want: []jsondiff.Change{{Path: "", Kind: jsondiff.Changed, Old: raw(`"x"`), New: raw(`null`)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := jsondiff.Diff(raw(tt.old), raw(tt.new), tt.ignore)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Diff = %s\nwant %s", js(got), js(tt.want))
			}
		})
	}
}

func TestDiffInvalid(t *testing.T) {
	if _, err := jsondiff.Diff(raw(`{`), raw(`{}`), nil); err == nil {
		t.Error("invalid old document: no error")
	}
	if _, err := jsondiff.Diff(raw(`{}`), raw(`1 2`), nil); err == nil {
		t.Error("two values: no error")
	}
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

func js(v any) string { b, _ := json.Marshal(v); return string(b) }
