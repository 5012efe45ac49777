package store

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/oauth"
)

// OAuth client secrets and tokens are sealed in the files, and key
// rotation re-seals them: they still open with the new key.
func TestOAuthSecretsAreSealedAndRotated(t *testing.T) {
	const token, clientSecret, settingsSecret = "access-token-in-the-grant", "dcr-client-secret", "preregistered-secret"
	path := filepath.Join(t.TempDir(), "playground.db")
	ctx := testContext(t)
	d, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	srvID := MustCreateServer(t, d, backend.Server{Name: "remote", Transport: backend.TransportHTTP, URL: "https://mcp.example/mcp"})
	u, err := d.CreateUser(ctx, backend.User{Name: "ann", Role: backend.RoleEditor}, "hash", false)
	if err != nil {
		t.Fatal(err)
	}
	g := oauth.Grant{ServerID: srvID, UserID: u.ID, Issuer: "https://as.example", ClientID: "c1", Scopes: []string{"mcp"}, HasRefresh: true}
	if err := d.SaveOAuthGrant(ctx, g, []byte(`{"token":{"access_token":"`+token+`"}}`)); err != nil {
		t.Fatal(err)
	}
	if err := d.SaveOAuthClient(ctx, oauth.Client{Issuer: g.Issuer, RedirectURI: "http://127.0.0.1/oauth/callback", ClientID: "c1",
		ClientSecret: clientSecret, Method: oauth.ClientDynamic}); err != nil {
		t.Fatal(err)
	}
	if err := d.SaveOAuthSettings(ctx, srvID, oauth.Settings{ClientID: "pre", ClientSecret: settingsSecret}); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	secrets := []string{token, clientSecret, settingsSecret}
	if found := findInFiles(t, path, secrets); len(found) > 0 {
		t.Fatalf("in plain text in the files: %v", found)
	}
	if _, err := RotateKey(ctx, path, KeySource{}, nil); err != nil {
		t.Fatal(err)
	}

	d = MustOpenPath(t, path)
	got, raw, ok, err := d.OAuthGrant(ctx, srvID, u.ID)
	if err != nil || !ok || !strings.Contains(string(raw), token) || got.Issuer != g.Issuer || !got.HasRefresh || got.UserName != "ann" {
		t.Errorf("the grant after rotation: %+v %q %v %v", got, raw, ok, err)
	}
	if c, ok, err := d.OAuthClient(ctx, g.Issuer, "http://127.0.0.1/oauth/callback"); err != nil || !ok || c.ClientSecret != clientSecret {
		t.Errorf("the client after rotation: %+v %v %v", c, ok, err)
	}
	if s, err := d.OAuthSettings(ctx, srvID); err != nil || s.ClientSecret != settingsSecret || s.ClientID != "pre" {
		t.Errorf("the settings after rotation: %+v %v", s, err)
	}
}

// A client credentials setting's private key is sealed in the files and
// re-sealed by key rotation; the grant, the key ID and DPoP come back as
// saved.
func TestOAuthPrivateKeyIsSealedAndRotated(t *testing.T) {
	const keyBody = "private-key-body-that-must-not-leak"
	path := filepath.Join(t.TempDir(), "playground.db")
	ctx := testContext(t)
	d, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	srvID := MustCreateServer(t, d, backend.Server{Name: "machine", Transport: backend.TransportHTTP, URL: "https://mcp.example/mcp"})
	want := oauth.Settings{GrantType: oauth.GrantClientCredentials, ClientAuth: oauth.PrivateKeyJWT, ClientID: "svc",
		PrivateKeyPEM: "-----BEGIN PRIVATE KEY-----\n" + keyBody + "\n-----END PRIVATE KEY-----\n", KeyID: "thumb", DPoP: true, Scopes: []string{"mcp:read"}}
	if err := d.SaveOAuthSettings(ctx, srvID, want); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if found := findInFiles(t, path, []string{keyBody}); len(found) > 0 {
		t.Fatalf("in plain text in the files: %v", found)
	}
	if _, err := RotateKey(ctx, path, KeySource{}, nil); err != nil {
		t.Fatal(err)
	}
	d = MustOpenPath(t, path)
	got, err := d.OAuthSettings(ctx, srvID)
	if err != nil || got.PrivateKeyPEM != want.PrivateKeyPEM || got.GrantType != want.GrantType || got.ClientAuth != want.ClientAuth ||
		got.KeyID != "thumb" || !got.DPoP || strings.Join(got.Scopes, " ") != "mcp:read" {
		t.Errorf("the settings after rotation: %+v %v", got, err)
	}
}

// A flow keeps its sign-in steps and its latest maxRenewalSteps
// renewals; older renewals go, with their re-runs.
func TestOAuthFlowKeepsItsLatestRenewals(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	srvID := MustCreateServer(t, d, backend.Server{Name: "remote", Transport: backend.TransportHTTP, URL: "https://mcp.example/mcp"})
	u, err := d.CreateUser(ctx, backend.User{Name: "ann", Role: backend.RoleEditor}, "hash", false)
	if err != nil {
		t.Fatal(err)
	}
	flowID, err := d.CreateOAuthFlow(ctx, oauth.Flow{ServerID: srvID, UserID: u.ID, Status: oauth.FlowRunning, StartedAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	add := func(kind oauth.StepKind, title string, rerunOf int64) int64 {
		id, err := d.AddOAuthStep(ctx, oauth.Step{FlowID: flowID, Kind: kind, Title: title, RerunOf: rerunOf, At: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	add(oauth.StepToken, "sign-in", 0)
	first := add(oauth.StepRefresh, "refresh 1", 0)
	add(oauth.StepRefresh, "re-run of refresh 1", first)
	for i := 2; i <= maxRenewalSteps+5; i++ {
		add(oauth.StepRefresh, fmt.Sprintf("refresh %d", i), 0)
	}
	f, err := d.OAuthFlow(ctx, flowID)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Steps) != 1+maxRenewalSteps {
		t.Fatalf("%d steps, want the sign-in's and %d renewals", len(f.Steps), maxRenewalSteps)
	}
	if f.Steps[0].Title != "sign-in" || f.Steps[1].Title != "refresh 6" || f.Steps[len(f.Steps)-1].Title != fmt.Sprintf("refresh %d", maxRenewalSteps+5) {
		t.Errorf("steps run from %q, %q to %q", f.Steps[0].Title, f.Steps[1].Title, f.Steps[len(f.Steps)-1].Title)
	}
}
