package backend

import (
	"context"
	"errors"
	"slices"
)

// SettingStore keeps small facts about the database.
type SettingStore interface {
	// Setting returns the value of key and whether it is set.
	Setting(ctx context.Context, key string) (string, bool, error)
	// SetSetting stores value under key.
	SetSetting(ctx context.Context, key, value string) error
}

// Registry is the team's list of servers: it validates what is saved and
// keeps servers with a live session from being deleted.
type Registry struct {
	store    ServerStore
	settings SettingStore
	pool     *Pool
}

// NewRegistry returns a registry over store; pool tells which servers are connected.
func NewRegistry(store ServerStore, settings SettingStore, pool *Pool) *Registry {
	return &Registry{store: store, settings: settings, pool: pool}
}

// List returns every server ordered by name.
func (r *Registry) List(ctx context.Context) ([]Server, error) { return r.store.ListServers(ctx) }

// Get returns one server or an ENotFound *Error.
func (r *Registry) Get(ctx context.Context, id int64) (Server, error) {
	return r.store.GetServer(ctx, id)
}

// Create normalizes (Server.Normalized), validates and stores a new
// server, returning its id.
func (r *Registry) Create(ctx context.Context, s Server) (int64, error) {
	s = s.Normalized()
	if err := s.Validate(); err != nil {
		return 0, err
	}
	return r.store.CreateServer(ctx, s)
}

// ServerUpdate is what saving a server's settings did besides storing them.
type ServerUpdate struct {
	// Moved says how the traffic's destination changed; "" when it did not.
	Moved DestinationChange
	// Dropped is what the change of destination removed of the server's
	// OAuth secrets.
	Dropped DroppedOAuth
}

// Update normalizes (Server.Normalized), validates and saves s over the server with s.ID. A connected
// session keeps the settings it was opened with. s may come from a form
// filled with the stored server's Redacted copy: each secret still shown
// redacted keeps its stored value (header values and URL parts only while
// the traffic goes where it went: destinationChange); one that has no stored value
// to keep is an EInvalid *Error naming the field. When the destination
// changes, the server's OAuth sign-ins are deleted and the client secret
// and private key of its OAuth settings cleared with the save
// (ServerStore.MoveServer), and the ServerUpdate says so. When the roots change,
// the server's live sessions are told (Pool.RootsChanged).
func (r *Registry) Update(ctx context.Context, s Server) (ServerUpdate, error) {
	stored, err := r.store.GetServer(ctx, s.ID)
	if err != nil {
		return ServerUpdate{}, err
	}
	s, fields := restoreSecrets(s.Normalized(), stored)
	if err := s.Validate(); err != nil {
		var e *Error
		if errors.As(err, &e) {
			for k, v := range fields {
				e.Fields[k] = v
			}
		}
		return ServerUpdate{}, err
	}
	up := ServerUpdate{Moved: destinationChange(stored, s)}
	if len(fields) > 0 {
		msg := "The server settings are not valid."
		if up.Moved != "" {
			msg = "Stored secrets do not follow a change of where the traffic goes, and " + up.Moved.Phrase() + ": type them again."
		}
		return ServerUpdate{}, &Error{Code: EInvalid, Message: msg, Fields: fields}
	}
	if up.Moved != "" {
		up.Dropped, err = r.store.MoveServer(ctx, s)
	} else {
		err = r.store.UpdateServer(ctx, s)
	}
	if err != nil {
		return ServerUpdate{}, err
	}
	if !slices.Equal(s.Roots, stored.Roots) {
		r.pool.RootsChanged(context.WithoutCancel(ctx), s.ID)
	}
	return up, nil
}

// Delete removes a server that has no live session; its history stays.
func (r *Registry) Delete(ctx context.Context, id int64) error {
	if _, live := r.pool.LiveSession(id); live {
		return Errorf(EConflict, "Disconnect the server before deleting it.")
	}
	return r.store.DeleteServer(ctx, id)
}

const demoSeededKey = "demo_server_seeded"

// SeedDemo registers demo the first time the database is used, so that a
// newcomer has a server to explore. Once seeded, a deleted demo stays deleted.
func (r *Registry) SeedDemo(ctx context.Context, demo Server) error {
	_, seeded, err := r.settings.Setting(ctx, demoSeededKey)
	if err != nil || seeded {
		return err
	}
	if _, err := r.Create(ctx, demo); err != nil && ErrorCodeOf(err) != EConflict {
		return err
	}
	return r.settings.SetSetting(ctx, demoSeededKey, "1")
}
