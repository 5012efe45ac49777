package views

import (
	"context"
	"strings"
	"testing"
)

func renderJSONBody(t *testing.T, body string) string {
	t.Helper()
	var b strings.Builder
	if err := jsonBody([]byte(body)).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestJSONBody(t *testing.T) {
	tests := []struct {
		name, body string
		has        []string
		hasNot     []string
	}{
		{"highlighted", `{"id":1,"ok":true,"none":null,"name":"echo","list":[1,2]}`,
			[]string{`data-testid="json-view"`, `<span class="jv-key">&#34;id&#34;</span>`, `<span class="jv-num">1</span>`,
				`<span class="jv-bool">true</span>`, `<span class="jv-null">null</span>`, `<span class="jv-str">&#34;echo&#34;</span>`,
				`<span class="jv-folded"> 2 items <span class="jv-p">]</span></span>`, `<span class="jv-folded"> 5 keys <span class="jv-p">}</span></span>`},
			nil},
		{"markup in keys and strings is text", `{"<img src=x>":"<script>alert(1)</script>","esc":"\u003cb\u003e"}`,
			[]string{`&lt;img src=x&gt;`, `&lt;script&gt;alert(1)&lt;/script&gt;`, `&lt;b&gt;`}, []string{"<script>", "<img", "<b>"}},
		{"empty object and array", `{"a":{},"b":[]}`, []string{`<span class="jv-p">{}</span>,`, `<span class="jv-p">[]</span>`}, nil},
		{"deep levels start closed", `{"a":{"b":{"c":{"d":{"e":1}}}}}`, []string{`<details class="jv-node"><summary`}, nil},
		{"not JSON", `{"cut":`, []string{`<pre>{&#34;cut&#34;:</pre>`}, []string{"json-view"}},
		{"too many values", "[" + strings.Repeat("1,", maxJSONViewValues) + "1]", []string{"<pre>"}, []string{"json-view"}},
		{"too long", `"` + strings.Repeat("x", maxJSONViewBytes) + `"`, []string{"<pre>"}, []string{"json-view"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := renderJSONBody(t, tt.body)
			for _, want := range tt.has {
				if !strings.Contains(got, want) {
					t.Errorf("the view lacks %s:\n%s", want, got)
				}
			}
			for _, bad := range tt.hasNot {
				if strings.Contains(got, bad) {
					t.Errorf("the view holds %s:\n%.2000s", bad, got)
				}
			}
		})
	}
}
