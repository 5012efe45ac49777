package backend

import "time"

// User is a person who may sign in to the dashboard.
type User struct {
	ID              int64
	Name            string
	Role            Role
	Created         time.Time
	PasswordChanged time.Time
	Disabled        bool
}
