package backend_test

import (
	"slices"
	"testing"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/backendtest"
)

func TestRegistryValidatesBeforeSaving(t *testing.T) {
	e := MustEnv(t)
	ctx := backendtest.Context(t)
	_, err := e.Reg.Create(ctx, backend.Server{Name: "", Transport: backend.TransportStdio})
	if backend.ErrorCodeOf(err) != backend.EInvalid {
		t.Errorf("Create(invalid) = %v, want EInvalid", err)
	}
	id := e.MustServer(t, backend.Server{Name: "ok", Transport: backend.TransportStdio, Command: "sh"})
	bad := backend.Server{ID: id, Name: "ok", Transport: backend.TransportHTTP, URL: "not a url"}
	if _, err := e.Reg.Update(ctx, bad); backend.ErrorCodeOf(err) != backend.EInvalid {
		t.Errorf("Update(invalid) = %v, want EInvalid", err)
	}
	if s, _ := e.Reg.Get(ctx, id); s.Transport != backend.TransportStdio {
		t.Errorf("an invalid update was saved: %+v", s)
	}
	if list, err := e.Reg.List(ctx); err != nil || len(list) != 1 {
		t.Errorf("List = %+v, %v", list, err)
	}
	if err := e.Reg.Delete(ctx, 9999); backend.ErrorCodeOf(err) != backend.ENotFound {
		t.Errorf("Delete(missing) = %v, want ENotFound", err)
	}
}

func TestRegistrySeedDemo(t *testing.T) {
	e := MustEnv(t)
	ctx := backendtest.Context(t)
	demo := backend.Server{Name: "Demo server", Transport: backend.TransportStdio, Command: "/bin/true", Args: []string{"demo-server"}}

	if err := e.Reg.SeedDemo(ctx, demo); err != nil {
		t.Fatalf("SeedDemo: %v", err)
	}
	list, _ := e.Reg.List(ctx)
	if len(list) != 1 || list[0].Name != "Demo server" {
		t.Fatalf("after seeding: %+v", list)
	}
	if err := e.Reg.SeedDemo(ctx, demo); err != nil {
		t.Fatalf("second SeedDemo: %v", err)
	}
	if list, _ := e.Reg.List(ctx); len(list) != 1 {
		t.Errorf("seeded twice: %+v", list)
	}
	// Once deleted, the demo stays deleted.
	if err := e.Reg.Delete(ctx, list[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := e.Reg.SeedDemo(ctx, demo); err != nil {
		t.Fatal(err)
	}
	if list, _ := e.Reg.List(ctx); len(list) != 0 {
		t.Errorf("a deleted demo came back: %+v", list)
	}

	t.Run("name already taken by the user", func(t *testing.T) {
		e := MustEnv(t)
		e.MustServer(t, backend.Server{Name: "Demo server", Transport: backend.TransportStdio, Command: "sh"})
		if err := e.Reg.SeedDemo(ctx, demo); err != nil {
			t.Fatalf("SeedDemo with the name taken: %v", err)
		}
		list, _ := e.Reg.List(ctx)
		if len(list) != 1 || list[0].Command != "sh" {
			t.Errorf("the user's server was replaced: %+v", list)
		}
	})
}

func TestRegistrySavesWhatWasChosen(t *testing.T) {
	e := MustEnv(t)
	ctx := backendtest.Context(t)
	id := e.MustServer(t, backend.Server{Name: " Everything (npx) ", Transport: backend.TransportStdio, Command: "sh -c 'exec cat'",
		URL: "http://127.0.0.1:1/mcp", Headers: map[string]string{"X-Key": "k"}})
	got, err := e.Reg.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "Everything (npx)" || got.Command != "sh" || !slices.Equal(got.Args, []string{"-c", "exec cat"}) || got.URL != "" || len(got.Headers) != 0 {
		t.Errorf("saved %+v", got)
	}
	up := backend.Server{ID: id, Name: "remote", Transport: backend.TransportHTTP, URL: "http://127.0.0.1:1/mcp",
		Command: "sh", Args: []string{"x"}, Env: map[string]string{"A": "1"}, Dir: "/tmp"}
	if _, err := e.Reg.Update(ctx, up); err != nil {
		t.Fatal(err)
	}
	if got, _ = e.Reg.Get(ctx, id); got.Command != "" || len(got.Args) != 0 || len(got.Env) != 0 || got.Dir != "" {
		t.Errorf("updated %+v", got)
	}
}
