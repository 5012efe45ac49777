package main

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestRunFetchesTheCollectionFromTheDashboard: `playground run URL` takes
// the collection straight from a dashboard's export route, with the API
// token of PLAYGROUND_TOKEN; without a token, or with a wrong one, it
// stops with exit status 2 and says why.
func TestRunFetchesTheCollectionFromTheDashboard(t *testing.T) {
	bin := e2eBuildPlayground(t)
	s := e2eServe(t, bin)
	file := `{"format":"mcp-playground-collection","version":1,"name":"smoke","examples":[
		{"name":"echo hi","method":"tools/call","params":{"name":"echo","arguments":{"message":"hi"}},
		 "expect":{"result":{"content":[{"type":"text","text":"hi"}]}}}]}`
	req, err := http.NewRequest(http.MethodPost, s.URL+"/api/v1/collections/import", strings.NewReader(file))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := e2eHTTPDo(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("importing the collection: %s\n%s", resp.Status, body)
	}
	export := s.URL + "/api/v1/collections/1/export"
	stdio := []string{"--stdio", bin + " demo-server"}

	ok := runPlayground(t, bin, []string{"PLAYGROUND_TOKEN=" + s.Token}, append([]string{export}, stdio...)...)
	if ok.code != 0 || !strings.Contains(ok.stdout+ok.stderr, "1 passed") {
		t.Errorf("run with the token: exit %d, want 0 and 1 passed", ok.code)
	}
	for _, tt := range []struct{ name, token, want string }{
		{"no token", "", "401 Unauthorized: Send a personal API token"},
		{"wrong token", "pgp_WRONGWRONGWRONGWRONGWRONGW", "unknown, revoked or expired"},
	} {
		r := runPlayground(t, bin, []string{"PLAYGROUND_TOKEN=" + tt.token}, append([]string{export}, stdio...)...)
		if r.code != 2 || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("run with %s: exit %d, stderr %q; want 2 and %q", tt.name, r.code, r.stderr, tt.want)
		}
	}
	if r := runPlayground(t, bin, []string{"PLAYGROUND_TOKEN=" + s.Token}, append([]string{fmt.Sprintf("%s/api/v1/collections/99/export", s.URL)}, stdio...)...); r.code != 2 || !strings.Contains(r.stderr, "404") {
		t.Errorf("run of a missing collection: exit %d, stderr %q; want 2 and 404", r.code, r.stderr)
	}
}
