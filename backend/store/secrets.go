package store

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// Server env and header values and server URLs can hold secrets (tokens,
// API keys, passwords), so they are stored encrypted with AES-256-GCM under a key kept in a file beside
// the database (PATH.key, mode 0600), created on first use. A copy of the
// database alone does not reveal them.

const (
	keySize         = 32
	encryptedPrefix = "enc:v1:"
)

// keyPath names the key file of the database at dbPath.
func keyPath(dbPath string) string { return dbPath + ".key" }

// loadOrCreateKey reads the key file, creating it with a fresh random key
// when it does not exist.
func loadOrCreateKey(path string) (cipher.AEAD, error) {
	key, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		key = make([]byte, keySize)
		if _, err := rand.Read(key); err != nil {
			return nil, fmt.Errorf("store: new secret key: %w", err)
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return nil, fmt.Errorf("store: create secret key file: %w", err)
		}
		_, werr := f.Write(key)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			return nil, fmt.Errorf("store: write secret key file: %w", werr)
		}
	} else if err != nil {
		return nil, fmt.Errorf("store: read secret key file: %w", err)
	}
	if len(key) != keySize {
		return nil, fmt.Errorf("store: secret key file %s holds %d bytes, want %d", path, len(key), keySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("store: secret key: %w", err)
	}
	return cipher.NewGCM(block)
}

// isSealed reports whether text was made by seal.
func isSealed(text string) bool { return strings.HasPrefix(text, encryptedPrefix) }

// seal encrypts plaintext into printable text.
func (d *DB) seal(plaintext []byte) (string, error) {
	nonce := make([]byte, d.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("store: nonce: %w", err)
	}
	sealed := d.aead.Seal(nonce, nonce, plaintext, nil)
	return encryptedPrefix + base64.StdEncoding.EncodeToString(sealed), nil
}

// open decrypts text made by seal.
func (d *DB) open(text string) ([]byte, error) {
	b64, ok := strings.CutPrefix(text, encryptedPrefix)
	if !ok {
		return nil, errors.New("store: secret value is not encrypted")
	}
	sealed, err := base64.StdEncoding.DecodeString(b64)
	if err != nil || len(sealed) < d.aead.NonceSize() {
		return nil, errors.New("store: secret value is corrupt")
	}
	n := d.aead.NonceSize()
	plain, err := d.aead.Open(nil, sealed[:n], sealed[n:], nil)
	if err != nil {
		return nil, errors.New("store: secret value cannot be decrypted: the key file does not match this database")
	}
	return plain, nil
}
