package backend

import (
	"slices"
	"strings"
)

// SecretPlace names where a secret value is: Where is "URL" (Name "url"),
// "proxy" (Name "proxy"), "env" or "header", and Name then the variable's
// or the header's name.
type SecretPlace struct {
	Where string `json:"where"`
	Name  string `json:"name"`
}

// Marker returns what people are shown in place of the secret at p:
// RedactedURLPart in a URL or a proxy URL, RedactedValue elsewhere.
func (p SecretPlace) Marker() string {
	if p.Where == "URL" || p.Where == "proxy" {
		return RedactedURLPart
	}
	return RedactedValue
}

// HTTPSecrets sorts the places of a recorded HTTP exchange that people are
// shown redacted (RedactHTTP) by what the store holds of them.
type HTTPSecrets struct {
	// Sealed are the places whose values the store keeps sealed beside the
	// redacted copy: an admin may reveal them.
	Sealed []SecretPlace `json:"sealed,omitempty"`
	// NotRecorded are the headers whose recorded values are, or hold, the
	// redaction marker: the server's Redactor replaced its configured
	// secret before recording, so the true value is in the server's
	// settings alone and no reveal of the frame can show it.
	NotRecorded []SecretPlace `json:"notRecorded,omitempty"`
}

// Places returns all the places of s, sealed first.
func (s HTTPSecrets) Places() []SecretPlace {
	return slices.Concat(s.Sealed, s.NotRecorded)
}

// ShownHTTP is a recorded HTTP exchange as people are shown it
// (RedactHTTP) and the places where that hides secrets (SecretsOfHTTP).
type ShownHTTP struct {
	Info    *HTTPInfo
	Secrets HTTPSecrets
}

// ShowHTTP works out the ShownHTTP of recorded, nil for nil.
func ShowHTTP(recorded *HTTPInfo) *ShownHTTP {
	if recorded == nil {
		return nil
	}
	return &ShownHTTP{Info: RedactHTTP(recorded), Secrets: SecretsOfHTTP(recorded)}
}

// SecretsOfHTTP sorts the secrets of recorded, an HTTP exchange as the
// recorder hands it to the store (after Redactor.Frame): its URL when
// RedactURL changes it, and each header, by name, whose values RedactHeader
// hides (Sealed) or that read the redaction marker (NotRecorded). A header
// with values of both kinds is in both. recorded may be nil.
func SecretsOfHTTP(recorded *HTTPInfo) HTTPSecrets {
	var s HTTPSecrets
	if recorded == nil {
		return s
	}
	if RedactURL(recorded.URL) != recorded.URL {
		s.Sealed = append(s.Sealed, SecretPlace{Where: "URL", Name: "url"})
	}
	names := make([]string, 0, len(recorded.Header))
	for name := range recorded.Header {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		place := SecretPlace{Where: "header", Name: name}
		values := recorded.Header[name]
		if IsSecretName(name) && slices.ContainsFunc(values, holdsRecordedValue) {
			s.Sealed = append(s.Sealed, place)
		}
		if slices.ContainsFunc(values, HoldsRedactedValue) {
			s.NotRecorded = append(s.NotRecorded, place)
		}
	}
	return s
}

// holdsRecordedValue reports whether a recorded value is not, nor holds,
// RedactedValue: the value itself was recorded.
func holdsRecordedValue(v string) bool { return !HoldsRedactedValue(v) }

// HoldsRedactedValue reports whether a recorded value is, or holds,
// RedactedValue: what the Redactor left of a configured secret.
func HoldsRedactedValue(v string) bool {
	return strings.Contains(v, RedactedValue)
}
