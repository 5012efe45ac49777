package web_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
	"github.com/mcp-playground/playground/web"
)

// TestLiveStreamEndsWithItsSession: a person watching a live session stops
// getting its frames once their browser session ends (here: an admin
// disables the account), with a close that says why.
func TestLiveStreamEndsWithItsSession(t *testing.T) {
	t.Cleanup(web.SetSessionRecheck(50 * time.Millisecond))
	d := MustDashboard(t)
	srv := d.MustAPIServer(t, map[string]any{"name": "sdk", "transport": "http", "url": MustSDKHTTPServer(t, nil)})
	sess := d.MustAPISession(t, srv.ID)

	vera := d.mustAccount(t, "vera", backend.RoleViewer)
	client := newClient()
	d.mustSignIn(t, client, "vera")
	dialer := &websocket.Dialer{Jar: client.Jar, HandshakeTimeout: 10 * time.Second}
	conn, _, err := dialer.Dial(fmt.Sprintf("ws://%s/sessions/%d/live", d.Host, sess.ID), http.Header{"Origin": {d.URL}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	ctx := context.Background()
	admin, err := d.accounts.UserByName(ctx, testAdmin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.accounts.UpdateUser(ctx, accounts.Principal{User: admin, Role: admin.Role}, vera.user.ID, backend.RoleViewer, true); err != nil {
		t.Fatal(err)
	}
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		_, _, err := conn.ReadMessage()
		if err == nil {
			continue
		}
		var closed *websocket.CloseError
		if !errors.As(err, &closed) || closed.Code != websocket.ClosePolicyViolation || closed.Text != "signed out" {
			t.Fatalf("the stream of a disabled person ended with %v, want a close 1008 \"signed out\"", err)
		}
		return
	}
}
