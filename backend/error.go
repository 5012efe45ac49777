package backend

import (
	"errors"
	"fmt"
)

// ErrorCode classifies an Error for the layer that shows it.
type ErrorCode string

const (
	// EInvalid means the caller's input was wrong; Fields may say where.
	EInvalid ErrorCode = "invalid"
	// ENotFound means the named thing does not exist.
	ENotFound ErrorCode = "not_found"
	// EConflict means the request clashes with the current state.
	EConflict ErrorCode = "conflict"
	// EUnauthenticated means the request names no signed-in person, or
	// the credentials it gave are wrong, expired or revoked.
	EUnauthenticated ErrorCode = "unauthenticated"
	// EForbidden means the person may not do this (their role is too low).
	EForbidden ErrorCode = "forbidden"
	// ETooManyAttempts means the caller must wait before trying again.
	ETooManyAttempts ErrorCode = "too_many_attempts"
	// EUnavailable means a peer (an MCP server, the database) failed.
	EUnavailable ErrorCode = "unavailable"
	// EInternal means a bug or an unexpected failure; its detail is logged, not shown.
	EInternal ErrorCode = "internal"
)

// Error is the application error: a code, a message safe to show to the
// user, and optionally per-field messages for form validation.
type Error struct {
	Code    ErrorCode
	Message string
	Fields  map[string]string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// Errorf returns an *Error with a formatted safe message.
func Errorf(code ErrorCode, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCodeOf returns the code of the first *Error in err's chain, or
// EInternal when there is none. A nil err has no code ("").
func ErrorCodeOf(err error) ErrorCode {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EInternal
}

// ErrorMessageOf returns the safe message of the first *Error in err's chain,
// or a generic text for internal errors, whose details must not be shown.
func ErrorMessageOf(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "internal error"
}

// InvalidField is an EInvalid *Error about one form field.
func InvalidField(field, msg string) *Error {
	return &Error{Code: EInvalid, Message: msg, Fields: map[string]string{field: msg}}
}
