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
	"path/filepath"
	"strings"
)

// The secret key is 32 random bytes (AES-256). It comes either from a key
// file (by default PATH.key beside the database, created on first use) or,
// base64-encoded, from the caller (PLAYGROUND_KEY), in which case no file
// is read or written.

// KeySource says where Open and RotateKey find the secret key. The zero
// value means the default key file, the database path + ".key".
type KeySource struct {
	// File is the key file; "" is the default, the database path + ".key".
	// A missing file is created with a fresh key.
	File string
	// Key is the key itself; when set, File is not used.
	Key []byte
}

// WithKey makes Open take the secret key from src instead of the default
// key file.
func WithKey(src KeySource) Option {
	return func(o *openOptions) { o.key = src }
}

// KeyFile is the key file src names for the database at dbPath, "" when
// src holds the key itself.
func (src KeySource) KeyFile(dbPath string) string {
	switch {
	case src.Key != nil:
		return ""
	case src.File != "":
		return src.File
	}
	return dbPath + ".key"
}

// ParseKey decodes a key given as base64 text (PLAYGROUND_KEY): standard or
// URL-safe alphabet, padded or not, surrounding space ignored.
func ParseKey(text string) ([]byte, error) {
	text = strings.TrimSpace(text)
	var key []byte
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if key, err = enc.DecodeString(text); err == nil {
			break
		}
	}
	if err != nil {
		return nil, errors.New("the key is not base64 text; give 32 random bytes in base64, e.g. from `head -c 32 /dev/urandom | base64`")
	}
	if len(key) != keySize {
		return nil, fmt.Errorf("the key is %d bytes long, want %d; give 32 random bytes in base64, e.g. from `head -c 32 /dev/urandom | base64`", len(key), keySize)
	}
	return key, nil
}

// EncodeKey is the base64 text of key that ParseKey reads.
func EncodeKey(key []byte) string { return base64.StdEncoding.EncodeToString(key) }

// newKey returns fresh random key bytes.
func newKey() ([]byte, error) {
	key := make([]byte, keySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("store: new secret key: %w", err)
	}
	return key, nil
}

// newAEAD makes the cipher that seals with key.
func newAEAD(key []byte) (cipher.AEAD, error) {
	if len(key) != keySize {
		return nil, fmt.Errorf("store: secret key holds %d bytes, want %d", len(key), keySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("store: secret key: %w", err)
	}
	return cipher.NewGCM(block)
}

// readKeyFile reads the key file at path. It refuses a file that group or
// others may read or write, and one that does not hold exactly 32 bytes.
// A missing file is reported as fs.ErrNotExist.
func readKeyFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("store: secret key file: %w", err)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		return nil, fmt.Errorf("store: the secret key file %s has mode %v: group and others may use it; make it private with `chmod 600 %s`", path, perm, path)
	}
	key, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("store: read secret key file: %w", err)
	}
	if len(key) != keySize {
		return nil, fmt.Errorf("store: the secret key file %s holds %d bytes, want %d", path, len(key), keySize)
	}
	return key, nil
}

// loadOrCreateKeyFile reads the key file at path, creating it with a fresh
// key when it does not exist.
func loadOrCreateKeyFile(path string) ([]byte, error) {
	key, err := readKeyFile(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, err
	}
	if key, err = newKey(); err != nil {
		return nil, err
	}
	if err := writeKeyFile(path, key, os.O_EXCL); err != nil {
		return nil, err
	}
	return key, nil
}

// writeKeyFile writes key to a new file at path, mode 0600, and flushes it
// to disk. flag is os.O_EXCL to refuse an existing file, os.O_TRUNC to
// replace it.
func writeKeyFile(path string, key []byte, flag int) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|flag, 0o600)
	if err != nil {
		return fmt.Errorf("store: create secret key file: %w", err)
	}
	err = f.Chmod(0o600) // whatever the umask, and for a replaced file
	if err == nil {
		_, err = f.Write(key)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("store: write secret key file %s: %w", path, err)
	}
	return nil
}

// syncDir flushes the directory holding path, so that a rename or removal
// in it survives a crash.
func syncDir(path string) error {
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("store: sync %s: %w", filepath.Dir(path), err)
	}
	return nil
}
