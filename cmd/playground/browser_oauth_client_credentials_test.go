package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/mcp-playground/playground/backend/oauthtest"
)

// TestBrowserOAuthClientCredentials sets a server's OAuth client settings
// to client credentials with a private key in Chromium: the form shows
// the fields each choice uses (the secret or the key), the saved card
// names the key by its thumbprint, and Connect then reaches the server
// without any sign-in: whoami names the client. With
// PLAYGROUND_SCREENSHOT_DIR set it saves the settings form.
func TestBrowserOAuthClientCredentials(t *testing.T) {
	srv, p := e2eBrowse(t)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, _ := x509.MarshalPKCS8PrivateKey(key)
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
	as := oauthtest.Start(t, oauthtest.Options{Client: oauthtest.Client{ID: "svc", PublicKey: &key.PublicKey}})
	id := srv.apiCreateServer(t, map[string]any{"name": "Machine server", "transport": "http", "url": as.MCPURL})
	serverPage := fmt.Sprintf("%s/servers/%d", srv.URL, id)

	shown := func(what string) map[string]bool {
		t.Helper()
		return e2eEval[map[string]bool](p, what, "", `({
			secret: getComputedStyle(document.querySelector('.oauth-secret')).display !== "none",
			key: getComputedStyle(document.querySelector('.oauth-key')).display !== "none",
			dpop: getComputedStyle(document.querySelector('label.oauth-cc-only')).display !== "none",
		})`)
	}
	p.do("open the client settings", "main", chromedp.Navigate(serverPage),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="oauth-card"]`)),
		chromedp.Click(chromedp.CSS(`[data-testid="oauth-settings"] summary`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="oauth-grant-client-credentials"]`)))
	if got := shown("read the fields shown"); !got["secret"] || got["key"] || got["dpop"] {
		t.Errorf("browser sign-in shows %v; want the secret only", got)
	}
	p.do("choose client credentials", "main", chromedp.Click(chromedp.CSS(`[data-testid="oauth-grant-client-credentials"]`)))
	if got := shown("read the fields shown"); !got["secret"] || got["key"] || !got["dpop"] {
		t.Errorf("client credentials with a secret shows %v; want the secret and DPoP", got)
	}
	p.do("choose a private key", "main", chromedp.Click(chromedp.CSS(`[data-testid="oauth-auth-private-key"]`)))
	if got := shown("read the fields shown"); got["secret"] || !got["key"] || !got["dpop"] {
		t.Errorf("client credentials with a private key shows %v; want the key and DPoP", got)
	}
	if shots := os.Getenv("PLAYGROUND_SCREENSHOT_DIR"); shots != "" {
		p.screenshot(shots, "oauth-client-credentials-settings", `[data-testid="oauth-card"]`)
	}
	p.do("fill in and save", "main",
		chromedp.SetValue(chromedp.CSS(`[data-testid="oauth-settings"] input[name="client_id"]`), "svc"),
		chromedp.SetValue(chromedp.CSS(`[data-testid="oauth-settings"] textarea[name="private_key"]`), keyPEM),
		chromedp.Click(chromedp.CSS(`[data-testid="oauth-settings-save"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="oauth-key-id"]`)))
	if got := p.text(`[data-testid="oauth-mode"]`); !strings.Contains(got, "client credentials with a private key") {
		t.Errorf("the card's mode reads %q", got)
	}
	if html := p.dump(`[data-testid="oauth-card"]`); strings.Contains(html, strings.Split(keyPEM, "\n")[1]) {
		t.Errorf("the card shows the private key")
	}

	p.do("connect", "main",
		chromedp.Click(chromedp.CSS(`[data-testid="connect"]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid="traffic-panel"]`)))
	p.waitLive()
	p.openTool("whoami")
	p.submitTool("whoami")
	p.wantOutcome("whoami", "result")
	if got := p.text(e2eCard("whoami") + ` [data-testid="content-text"]`); !strings.HasPrefix(got, "subject=svc ") {
		t.Errorf("whoami answered %q, want the client svc as the subject", got)
	}
	if st := as.Stats(); st.ClientCredentials != 1 || st.Approvals != 0 {
		t.Errorf("the authorization server saw %+v; want one client credentials grant and no sign-in", st)
	}
}
