package store

import (
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// Server env and header values, server URLs, frames' HTTP headers and
// URLs, and environments' secret values can hold secrets (tokens, API keys,
// passwords), so they are stored encrypted with AES-256-GCM under the
// database's secret key (key.go): by default in a file beside the database
// (PATH.key, mode 0600), created on first use. A copy of the database alone
// does not reveal them. Sealed text is encryptedPrefix followed by the
// standard base64 of nonce and ciphertext, so it can be found inside any
// text column, JSON included (RotateKey relies on this).

const (
	keySize         = 32
	encryptedPrefix = "enc:v1:"
)

// isSealed reports whether text was made by seal.
func isSealed(text string) bool { return strings.HasPrefix(text, encryptedPrefix) }

// seal encrypts plaintext into printable text.
func (d *DB) seal(plaintext []byte) (string, error) { return sealWith(d.aead, plaintext) }

// open decrypts text made by seal.
func (d *DB) open(text string) ([]byte, error) { return openWith(d.aead, text) }

// sealWith encrypts plaintext with aead into printable text.
func sealWith(aead cipher.AEAD, plaintext []byte) (string, error) {
	nonce := make([]byte, aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("store: nonce: %w", err)
	}
	sealed := aead.Seal(nonce, nonce, plaintext, nil)
	return encryptedPrefix + base64.StdEncoding.EncodeToString(sealed), nil
}

// openWith decrypts text made by sealWith with the same key.
func openWith(aead cipher.AEAD, text string) ([]byte, error) {
	b64, ok := strings.CutPrefix(text, encryptedPrefix)
	if !ok {
		return nil, errors.New("store: secret value is not encrypted")
	}
	sealed, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(sealed) < aead.NonceSize() {
		return nil, errors.New("store: secret value is corrupt")
	}
	n := aead.NonceSize()
	plain, err := aead.Open(nil, sealed[:n], sealed[n:], nil)
	if err != nil {
		return nil, errors.New("store: secret value cannot be decrypted: the key file does not match this database")
	}
	return plain, nil
}
