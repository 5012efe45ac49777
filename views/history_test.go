package views

import (
	"reflect"
	"testing"

	"github.com/mcp-playground/playground/backend"
)

func TestExcerpt(t *testing.T) {
	long := `{"result":{"content":[{"type":"text","text":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa Weather today bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"}]}}`
	e := backend.HistoryEntry{Request: backend.Frame{Body: []byte(`{"params":{"name":"x","q":"needle"}}`)}, Response: backend.Frame{Body: []byte(long)}}
	got := excerpt(e, []string{"weather"})
	if len(got) != 3 || got[1] != (excerptSpan{Text: "Weather", Mark: true}) || got[0].Text[:len("…")] != "…" || got[2].Text[len(got[2].Text)-len("…"):] != "…" {
		t.Errorf("excerpt = %+v", got)
	}
	if got := excerpt(e, []string{"needle"}); len(got) != 3 || got[1].Text != "needle" {
		t.Errorf("excerpt from the request = %+v", got)
	}
	// A body whose lower case has another length is searched as it is.
	odd := backend.HistoryEntry{Response: backend.Frame{Body: []byte("İİİ word")}}
	if got := excerpt(odd, []string{"word"}); !reflect.DeepEqual(got, []excerptSpan{{Text: "İİİ "}, {Text: "word", Mark: true}, {Text: ""}}) {
		t.Errorf("excerpt = %+v", got)
	}
	if got := excerpt(odd, nil); !reflect.DeepEqual(got, []excerptSpan{{Text: "İİİ word"}}) {
		t.Errorf("excerpt without terms = %+v", got)
	}
}
