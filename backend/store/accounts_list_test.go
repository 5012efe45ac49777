package store

import (
	"crypto/sha256"
	"fmt"
	"testing"
	"time"

	"github.com/mcp-playground/playground/backend"
	"github.com/mcp-playground/playground/backend/accounts"
)

// TestWebSessionsListIsBounded: an account's page lists its latest
// MaxListedSessions browser sessions, most recently seen first, however
// many it has.
func TestWebSessionsListIsBounded(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	now := time.Now()
	u, err := d.CreateUser(ctx, backend.User{Name: "ada", Role: backend.RoleEditor, Created: now, PasswordChanged: now}, "x", false)
	if err != nil {
		t.Fatal(err)
	}
	n := accounts.MaxListedSessions + 5
	for i := range n {
		seen := now.Add(time.Duration(i) * time.Second)
		hash := sha256.Sum256([]byte(fmt.Sprint(i)))
		if _, err := d.CreateWebSession(ctx, accounts.WebSession{UserID: u.ID, Created: now, LastSeen: seen, Expires: now.Add(time.Hour)}, hash[:]); err != nil {
			t.Fatal(err)
		}
	}
	list, err := d.ListWebSessions(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != accounts.MaxListedSessions {
		t.Fatalf("listed %d of %d sessions, want %d", len(list), n, accounts.MaxListedSessions)
	}
	if want := now.Add(time.Duration(n-1) * time.Second); !list[0].LastSeen.Equal(want) {
		t.Errorf("the first listed session was last seen %v, want the newest, %v", list[0].LastSeen, want)
	}
}

// TestUpdateUserKeepsAnAdmin: demoting or disabling the last enabled admin
// is refused, whoever asks; with another admin it is not.
func TestUpdateUserKeepsAnAdmin(t *testing.T) {
	d := MustOpen(t)
	ctx := testContext(t)
	now := time.Now()
	add := func(name string, role backend.Role) backend.User {
		u, err := d.CreateUser(ctx, backend.User{Name: name, Role: role, Created: now, PasswordChanged: now}, "x", false)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	ada, bob := add("ada", backend.RoleAdmin), add("bob", backend.RoleAdmin)
	add("cy", backend.RoleEditor)
	ada.Role = backend.RoleEditor
	if err := d.UpdateUser(ctx, ada); err != nil {
		t.Fatalf("demoting ada while bob is an admin: %v", err)
	}
	bob.Disabled = true
	if err := d.UpdateUser(ctx, bob); backend.ErrorCodeOf(err) != backend.EConflict {
		t.Fatalf("disabling bob, the last enabled admin: %v, want a conflict", err)
	}
	bob.Disabled, bob.Role = false, backend.RoleViewer
	if err := d.UpdateUser(ctx, bob); backend.ErrorCodeOf(err) != backend.EConflict {
		t.Fatalf("demoting bob, the last admin: %v, want a conflict", err)
	}
	if got, _ := d.GetUser(ctx, bob.ID); got.Role != backend.RoleAdmin || got.Disabled {
		t.Errorf("bob after the refusals: %+v", got)
	}
	bob.Role = backend.RoleAdmin
	if err := d.UpdateUser(ctx, bob); err != nil {
		t.Errorf("saving bob unchanged: %v", err)
	}
}
