package backend

// Role is what a person (or one of their API tokens) may do. Each role may
// do everything the roles below it may.
type Role string

const (
	// RoleViewer reads the registry, history and collections and watches
	// live sessions; it sends nothing to a server.
	RoleViewer Role = "viewer"
	// RoleEditor also registers HTTP servers, connects, calls and keeps
	// collections.
	RoleEditor Role = "editor"
	// RoleAdmin also manages people, registers stdio servers (commands
	// that run on the dashboard's host) and changes settings.
	RoleAdmin Role = "admin"
)

// Roles lists every role, lowest first.
var Roles = []Role{RoleViewer, RoleEditor, RoleAdmin}

// rank orders roles; an unknown role ranks below every real one.
func (r Role) rank() int {
	switch r {
	case RoleViewer:
		return 1
	case RoleEditor:
		return 2
	case RoleAdmin:
		return 3
	}
	return 0
}

// Valid reports whether r is one of Roles.
func (r Role) Valid() bool { return r.rank() > 0 }

// Allows reports whether r may do what needs the role need.
func (r Role) Allows(need Role) bool { return r.Valid() && r.rank() >= need.rank() }

// Lower returns the lower of r and o: what a token of role r owned by a
// person of role o may do.
func (r Role) Lower(o Role) Role {
	if r.rank() <= o.rank() {
		return r
	}
	return o
}
