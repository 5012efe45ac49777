package store

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/collections"
	"github.com/mcp-playground/playground/mcpclient"
)

// The plaintext secrets sealedDB stores.
var rotatedSecrets = append([]string{"env-s3cret-v4lue", "hunter2-env", "Bearer hunter2-header", "hunter2-frame-auth"}, urlSecrets...)

// sealedDB makes a database at path, its key from opts, holding a server
// with env, header and URL secrets, frames with sealed HTTP info and a
// secret environment value, and returns the ids to read them back by.
func sealedDB(t *testing.T, path string, opts ...Option) (server, session, collection, env int64) {
	t.Helper()
	ctx := testContext(t)
	d, err := Open(ctx, path, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	server = MustCreateServer(t, d, backend.Server{Name: "remote", Transport: backend.TransportHTTP, URL: secretURL,
		Env: map[string]string{"API_KEY": "hunter2-env"}, Headers: map[string]string{"Authorization": "Bearer hunter2-header"}})
	session = MustCreateSession(t, d, server, "remote")
	frames := []backend.Frame{{ID: 1, SessionID: session, Time: time.Now(), Direction: mcpclient.Outbound, Kind: mcpclient.KindMessage, Body: []byte(`{}`),
		HTTP: &mcpclient.HTTPInfo{Method: "POST", URL: secretURL, Header: http.Header{"Authorization": {"hunter2-frame-auth"}}}}}
	if err := d.InsertFrames(ctx, frames, nil); err != nil {
		t.Fatal(err)
	}
	col, err := d.CreateCollection(ctx, collections.Collection{Name: "c", Created: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	e, err := d.SaveEnvironment(ctx, collections.Environment{CollectionID: col.ID, Name: "prod",
		Values: []collections.EnvValue{{Name: "token", Value: "env-s3cret-v4lue", Secret: true}}})
	if err != nil {
		t.Fatal(err)
	}
	return server, session, col.ID, e.ID
}

// checkSecretsReadable fails unless every secret sealedDB stored reads back.
func checkSecretsReadable(t *testing.T, d *DB, server, session, collection, env int64) {
	t.Helper()
	ctx := testContext(t)
	s, err := d.GetServer(ctx, server)
	if err != nil || s.URL != secretURL || s.Env["API_KEY"] != "hunter2-env" || s.Headers["Authorization"] != "Bearer hunter2-header" {
		t.Errorf("server read back = %+v, %v", s, err)
	}
	frames, err := d.ListFrames(ctx, backend.FrameQuery{SessionID: session})
	if err != nil || len(frames) != 1 {
		t.Fatalf("frames read back = %+v, %v", frames, err)
	}
	if info, err := d.RevealFrameHTTP(ctx, frames[0].ID); err != nil || info == nil || info.URL != secretURL || info.Header.Get("Authorization") != "hunter2-frame-auth" {
		t.Errorf("frame %d HTTP info revealed = %+v, %v", frames[0].ID, info, err)
	}
	values, err := d.EnvironmentValues(ctx, collection, env)
	if err != nil || values["token"] != "env-s3cret-v4lue" {
		t.Errorf("environment values read back = %v, %v", values, err)
	}
}

// sealedTexts is every sealed value in the database's text columns.
func sealedTexts(t *testing.T, path string) []string {
	t.Helper()
	db, err := sqlx.Open("sqlite3", DSN(path))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	tx, err := db.Beginx()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	cols, err := textColumns(testContext(t), tx)
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, c := range cols {
		var texts []string
		if err := tx.Select(&texts, fmt.Sprintf(`SELECT %s FROM %s WHERE typeof(%[1]s) = 'text'`, quoteIdent(c.column), quoteIdent(c.table))); err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			all = append(all, sealedText().FindAllString(text, -1)...)
		}
	}
	return all
}

// inFiles returns the texts whose first 40 characters (the prefix and 33
// of random nonce) are in the raw bytes of the database's files.
func inFiles(t *testing.T, path string, texts []string) []string {
	t.Helper()
	heads := make([]string, len(texts))
	for i, s := range texts {
		heads[i] = s[:min(len(s), 40)]
	}
	return findInFiles(t, path, heads)
}

func readKey(t *testing.T, file string) []byte {
	t.Helper()
	key, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

func wantWrongKey(t *testing.T, path string, opts ...Option) {
	t.Helper()
	d, err := Open(testContext(t), path, opts...)
	if err == nil {
		d.Close()
		t.Fatal("Open succeeded with a key that does not open the database")
	}
	if !errors.Is(err, ErrWrongKey) || !strings.Contains(err.Error(), "this key does not open this database's secrets") {
		t.Errorf("Open = %v, want ErrWrongKey", err)
	}
}

// TestRotateKeyFile: rotation re-seals server secrets, frames' HTTP info
// and environment secrets with a new key written to the key file; every
// value reads back, no old ciphertext is left in the files, the old key no
// longer opens the database, and no plaintext secret is ever in the files.
func TestRotateKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "playground.db")
	server, session, col, env := sealedDB(t, path)
	oldKey := readKey(t, path+".key")
	if found := findInFiles(t, path, rotatedSecrets); len(found) > 0 {
		t.Errorf("plaintext secrets before rotation: %v", found)
	}
	before := sealedTexts(t, path)
	if len(before) < 7 { // check value, URL, env, headers, frame URL and header, environment value
		t.Fatalf("only %d sealed values before rotation", len(before))
	}
	if found := inFiles(t, path, before); len(found) != len(before) {
		t.Fatalf("only %d of the %d ciphertexts found in the files before rotation: the test cannot see them", len(found), len(before))
	}

	rot, err := RotateKey(testContext(t), path, KeySource{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rot.Resealed < 7 || rot.Foreign != 0 {
		t.Errorf("rotation = %+v, want at least 7 re-sealed and none foreign", rot)
	}
	newKey := readKey(t, path+".key")
	if bytes.Equal(newKey, oldKey) || len(newKey) != keySize {
		t.Fatalf("key file after rotation holds %d bytes, same as before: %v", len(newKey), bytes.Equal(newKey, oldKey))
	}
	if info, err := os.Stat(path + ".key"); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("key file after rotation: %v, %v; want mode 0600", info.Mode(), err)
	}
	for _, stray := range []string{".key.old", ".key.new"} {
		if _, err := os.Stat(path + stray); !os.IsNotExist(err) {
			t.Errorf("%s left after rotation: %v", stray, err)
		}
	}
	after := sealedTexts(t, path)
	if len(after) != len(before) {
		t.Errorf("%d sealed values after rotation, %d before", len(after), len(before))
	}
	if left := inFiles(t, path, before); len(left) > 0 {
		t.Errorf("old ciphertexts left in the files after rotation: %v", left)
	}
	if found := inFiles(t, path, after); len(found) != len(after) {
		t.Errorf("only %d of the %d new ciphertexts found in the files: the test cannot see them", len(found), len(after))
	}
	if found := findInFiles(t, path, rotatedSecrets); len(found) > 0 {
		t.Errorf("plaintext secrets after rotation: %v", found)
	}

	wantWrongKey(t, path, WithKey(KeySource{Key: oldKey}))
	d := MustOpenPath(t, path)
	checkSecretsReadable(t, d, server, session, col, env)
}

// TestRotateKeyGivenAsText: with the key given as text, rotation hands the
// new key to publish and writes no key file.
func TestRotateKeyGivenAsText(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "playground.db")
	oldKey, err := newKey()
	if err != nil {
		t.Fatal(err)
	}
	server, session, col, env := sealedDB(t, path, WithKey(KeySource{Key: oldKey}))
	var published []byte
	if _, err := RotateKey(testContext(t), path, KeySource{Key: oldKey}, func(key []byte) error { published = key; return nil }); err != nil {
		t.Fatal(err)
	}
	if len(published) != keySize {
		t.Fatalf("published key of %d bytes", len(published))
	}
	if entries, _ := filepath.Glob(filepath.Join(dir, "*.key*")); len(entries) > 0 {
		t.Errorf("key files written with a key given as text: %v", entries)
	}
	wantWrongKey(t, path, WithKey(KeySource{Key: oldKey}))
	d, err := Open(testContext(t), path, WithKey(KeySource{Key: published}))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	checkSecretsReadable(t, d, server, session, col, env)

	t.Run("a failed publish leaves the old key", func(t *testing.T) {
		d.Close()
		if _, err := RotateKey(testContext(t), path, KeySource{Key: published}, func([]byte) error { return errors.New("stdout closed") }); err == nil {
			t.Fatal("rotation succeeded though the new key could not be published")
		}
		d, err := Open(testContext(t), path, WithKey(KeySource{Key: published}))
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		checkSecretsReadable(t, d, server, session, col, env)
	})
}

// TestOpenRecoversInterruptedRotation: the key file states a crash during
// rotation leaves are repaired by Open.
func TestOpenRecoversInterruptedRotation(t *testing.T) {
	t.Run("new key file, transaction not committed", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "playground.db")
		server, session, col, env := sealedDB(t, path)
		oldKey := readKey(t, path+".key")
		next, _ := newKey()
		if err := writeKeyFile(path+".key.old", oldKey, os.O_EXCL); err != nil {
			t.Fatal(err)
		}
		if err := writeKeyFile(path+".key", next, os.O_TRUNC); err != nil {
			t.Fatal(err)
		}
		d := MustOpenPath(t, path)
		checkSecretsReadable(t, d, server, session, col, env)
		if !bytes.Equal(readKey(t, path+".key"), oldKey) {
			t.Error("the old key was not restored to the key file")
		}
		if _, err := os.Stat(path + ".key.old"); !os.IsNotExist(err) {
			t.Errorf(".key.old left: %v", err)
		}
	})
	t.Run("committed, old key file not removed", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "playground.db")
		server, session, col, env := sealedDB(t, path)
		oldKey := readKey(t, path+".key")
		if _, err := RotateKey(testContext(t), path, KeySource{}, nil); err != nil {
			t.Fatal(err)
		}
		if err := writeKeyFile(path+".key.old", oldKey, os.O_EXCL); err != nil {
			t.Fatal(err)
		}
		d := MustOpenPath(t, path)
		checkSecretsReadable(t, d, server, session, col, env)
		if _, err := os.Stat(path + ".key.old"); !os.IsNotExist(err) {
			t.Errorf(".key.old left: %v", err)
		}
	})
	t.Run("neither key opens it", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "playground.db")
		sealedDB(t, path)
		a, _ := newKey()
		b, _ := newKey()
		if err := writeKeyFile(path+".key.old", a, os.O_EXCL); err != nil {
			t.Fatal(err)
		}
		if err := writeKeyFile(path+".key", b, os.O_TRUNC); err != nil {
			t.Fatal(err)
		}
		wantWrongKey(t, path)
	})
}

// TestKeyInputs: malformed keys are refused with a message that says what
// to do, and a key file can live apart from the database.
func TestKeyInputs(t *testing.T) {
	good, _ := newKey()
	for _, tt := range []struct{ name, text, wantErr string }{
		{"not base64", "not base64!", "not base64"},
		{"too short", EncodeKey(good[:16]), "16 bytes long, want 32"},
		{"std", EncodeKey(good), ""},
		{"url-safe unpadded, spaces", "  " + strings.TrimRight(strings.NewReplacer("+", "-", "/", "_").Replace(EncodeKey(good)), "=") + "\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			key, err := ParseKey(tt.text)
			if tt.wantErr == "" {
				if err != nil || !bytes.Equal(key, good) {
					t.Errorf("ParseKey = %x, %v", key, err)
				}
			} else if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseKey = %v, want %q", err, tt.wantErr)
			}
		})
	}

	ctx := testContext(t)
	openErr := func(t *testing.T, path string, opts ...Option) string {
		t.Helper()
		d, err := Open(ctx, path, opts...)
		if err == nil {
			d.Close()
			t.Fatal("Open succeeded")
		}
		return err.Error()
	}
	t.Run("key file readable by others", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "playground.db")
		sealedDB(t, path)
		if err := os.Chmod(path+".key", 0o640); err != nil {
			t.Fatal(err)
		}
		if msg := openErr(t, path); !strings.Contains(msg, "chmod 600 "+path+".key") {
			t.Errorf("Open = %s, want the chmod fix", msg)
		}
	})
	t.Run("key file of the wrong size", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "playground.db")
		if err := os.WriteFile(path+".key", []byte("short"), 0o600); err != nil {
			t.Fatal(err)
		}
		if msg := openErr(t, path); !strings.Contains(msg, "holds 5 bytes, want 32") {
			t.Errorf("Open = %s", msg)
		}
	})
	t.Run("key file missing for a database with secrets", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "playground.db")
		sealedDB(t, path)
		if err := os.Remove(path + ".key"); err != nil {
			t.Fatal(err)
		}
		if msg := openErr(t, path); !strings.Contains(msg, "is missing") {
			t.Errorf("Open = %s", msg)
		}
		if _, err := os.Stat(path + ".key"); !os.IsNotExist(err) {
			t.Errorf("a new key file was made: %v", err)
		}
	})
	t.Run("key file elsewhere", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "playground.db")
		file := filepath.Join(t.TempDir(), "secret.key")
		server, session, col, env := sealedDB(t, path, WithKey(KeySource{File: file}))
		if _, err := os.Stat(path + ".key"); !os.IsNotExist(err) {
			t.Errorf("a key file beside the database: %v", err)
		}
		if msg := openErr(t, path); !strings.Contains(msg, "is missing") { // the default key file
			t.Errorf("Open without the key file = %s", msg)
		}
		d, err := Open(ctx, path, WithKey(KeySource{File: file}))
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		checkSecretsReadable(t, d, server, session, col, env)
	})
	t.Run("database made before the check value", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "playground.db")
		server, session, col, env := sealedDB(t, path)
		d := MustOpenPath(t, path)
		if _, err := d.db.Exec(`DELETE FROM key_check`); err != nil {
			t.Fatal(err)
		}
		d.Close()
		wantWrongKey(t, path, WithKey(KeySource{Key: good}))
		d = MustOpenPath(t, path)
		checkSecretsReadable(t, d, server, session, col, env)
		var n int
		if err := d.db.Get(&n, `SELECT COUNT(*) FROM key_check`); err != nil || n != 1 {
			t.Errorf("check values = %d, %v; want it written again", n, err)
		}
	})
}
