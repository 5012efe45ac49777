package collections_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
	"github.com/mcp-playground/playground/backend/collections"
)

// TestCollectionFileRoundTrip exports a collection, imports the file under
// another name and exports that: the two files differ in the name alone,
// and neither holds the secret.
func TestCollectionFileRoundTrip(t *testing.T) {
	e := backendtest.MustEnv(t)
	ctx := backendtest.Context(t)
	cols := newCollections(t, e)
	col, err := cols.Create(ctx, "smoke", "checks the basics")
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range []collections.Example{
		{Name: "echo", Method: "tools/call", Params: json.RawMessage(`{"name":"echo","arguments":{"text":"{{greeting}}"}}`),
			SnapshotKind: collections.SnapshotResult, Snapshot: json.RawMessage(`{"content":[{"type":"text","text":"hi"}]}`),
			Volatile: []string{"/_meta"}, Captures: []collections.Capture{{Name: "said", Path: "$.content[0].text"}},
			Assertions: []collections.Assertion{{Kind: collections.AssertLatency, MaxMS: 500}}},
		{Name: "unknown tool", Method: "tools/call", Params: json.RawMessage(`{"name":"nope"}`),
			SnapshotKind: collections.SnapshotError, Snapshot: json.RawMessage(`{"code":-32602,"message":"unknown tool"}`)},
		{Name: "failing tool", Method: "tools/call", SnapshotKind: collections.SnapshotResult, ExpectIsError: true,
			Snapshot: json.RawMessage(`{"content":[],"isError":true}`)},
	} {
		ex.CollectionID = col.ID
		if _, err := e.DB.AddExample(ctx, ex); err != nil {
			t.Fatal(err)
		}
	}
	const secret = "file-s3cret"
	if _, err := cols.SaveEnvironment(ctx, collections.Environment{CollectionID: col.ID, Name: "dev",
		Values: []collections.EnvValue{{Name: "greeting", Value: "hi"}, {Name: "token", Value: secret, Secret: true}}}, backend.RoleEditor); err != nil {
		t.Fatal(err)
	}
	listing := &backend.InterfaceListing{Tools: []json.RawMessage{json.RawMessage(`{"name":"echo"}`)}}
	export := func(id int64) []byte {
		t.Helper()
		f, err := cols.Export(ctx, id, listing)
		if err != nil {
			t.Fatal(err)
		}
		b, err := f.Encode()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	first := export(col.ID)
	if bytes.Contains(first, []byte(secret)) {
		t.Errorf("the exported file holds the secret:\n%s", first)
	}
	if !bytes.HasPrefix(first, []byte("{\n  \"format\": \"mcp-playground-collection\",\n  \"version\": 1,\n  \"name\": \"smoke\",")) {
		t.Errorf("the file does not start with its format, version and name:\n%s", first)
	}
	if !bytes.Contains(first, []byte("\n      \"params\": {\n        \"name\": \"echo\",")) {
		t.Errorf("params are not indented with the file:\n%s", first)
	}

	f, err := collections.DecodeFile(first)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cols.Import(ctx, f); backend.ErrorCodeOf(err) != backend.EConflict {
		t.Errorf("importing over an existing name = %v, want a conflict", err)
	}
	f.Name = "smoke copy"
	imported, err := cols.Import(ctx, f)
	if err != nil || imported.Examples != 3 {
		t.Fatalf("Import = %+v, %v", imported, err)
	}
	second := export(imported.ID)
	if want := bytes.Replace(first, []byte(`"name": "smoke",`), []byte(`"name": "smoke copy",`), 1); !bytes.Equal(second, want) {
		t.Errorf("re-exported file differs:\n%s\nwant\n%s", second, want)
	}
	envs, err := cols.Environments(ctx, imported.ID)
	if err != nil || len(envs) != 1 || len(envs[0].Values) != 2 || !envs[0].Values[1].Secret {
		t.Errorf("imported environments = %+v, %v", envs, err)
	}
}

// TestCollectionFileBadInput: each bad file is refused with a message that
// says what is wrong, and nothing is stored.
func TestCollectionFileBadInput(t *testing.T) {
	e := backendtest.MustEnv(t)
	ctx := backendtest.Context(t)
	cols := newCollections(t, e)
	good := `{"format":"mcp-playground-collection","version":1,"name":"n","examples":[
		{"name":"a","method":"ping","expect":{"result":{}}}]}`
	f, err := collections.DecodeFile([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cols.Import(ctx, f); err != nil {
		t.Fatal(err)
	}
	ex := func(examples string) string {
		return `{"format":"mcp-playground-collection","version":1,"name":"m","examples":[` + examples + `]}`
	}
	for _, tc := range []struct{ name, file, want string }{
		{"not JSON", "{\n\"format\": \"mcp-playground-collection\",\n  oops", "line 3"},
		{"empty", " \n", "empty"},
		{"another format", `{"format":"postman","version":1}`, "not an MCP Playground collection"},
		{"a future version", `{"format":"mcp-playground-collection","version":2,"name":"x","examples":[],"newThing":1}`, "version 2"},
		{"an unknown member", `{"format":"mcp-playground-collection","version":1,"name":"x","examples":[],"extra":1}`, "extra"},
		{"a wrong type", `{"format":"mcp-playground-collection","version":1,"name":"x","examples":{}}`, "examples"},
		{"no name", `{"format":"mcp-playground-collection","version":1,"name":" ","examples":[]}`, "name"},
		{"a collection name with ESC", `{"format":"mcp-playground-collection","version":1,"name":"x\u001b]0;owned\u0007","examples":[]}`, "control characters"},
		{"an example name with ESC", ex(`{"name":"a\u001b[2J","method":"ping","expect":{"result":{}}}`), "control characters"},
		{"an environment name with BEL", `{"format":"mcp-playground-collection","version":1,"name":"x","examples":[],"environments":[{"name":"e\u0007","values":[]}]}`, "control characters"},
		{"duplicate example names", ex(`{"name":"a","method":"ping","expect":{"result":{}}},{"name":"a","method":"ping","expect":{"result":{}}}`), "two examples"},
		{"no expect", ex(`{"name":"a","method":"ping","expect":{}}`), "expect"},
		{"both result and error", ex(`{"name":"a","method":"ping","expect":{"result":{},"error":{"code":1}}}`), "expect"},
		{"no method", ex(`{"name":"a","method":"","expect":{"result":{}}}`), "no method"},
		{"params not an object", ex(`{"name":"a","method":"ping","params":[1],"expect":{"result":{}}}`), "params"},
		{"a bad assertion", ex(`{"name":"a","method":"ping","expect":{"result":{}},"assertions":[{"kind":"matches","path":"$.a","pattern":"("}]}`), "pattern"},
		{"a bad volatile path", ex(`{"name":"a","method":"ping","expect":{"result":{}},"volatile":["content"]}`), "JSON Pointer"},
		{"a bad variable name", `{"format":"mcp-playground-collection","version":1,"name":"x","examples":[],"environments":[{"name":"e","values":[{"name":"a b"}]}]}`, "variable name"},
	} {
		_, err := collections.DecodeFile([]byte(tc.file))
		if backend.ErrorCodeOf(err) != backend.EInvalid || !strings.Contains(backend.ErrorMessageOf(err), tc.want) {
			t.Errorf("%s: %v, want EInvalid mentioning %q", tc.name, err, tc.want)
		}
	}
	list, err := cols.List(ctx)
	if err != nil || len(list) != 1 || list[0].Examples != 1 {
		t.Errorf("collections after the refusals = %+v, %v; want the one good import", list, err)
	}
}
