package backend

import (
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
	"time"
)

// CACert describes one certificate of a server's CA bundle, for the form
// to show what is stored.
type CACert struct {
	Subject  string
	Issuer   string
	NotAfter time.Time
}

// Expired reports whether the certificate's validity ended before now.
func (c CACert) Expired(now time.Time) bool { return now.After(c.NotAfter) }

// ParseCACerts reads a CA bundle: one or more PEM CERTIFICATE blocks,
// with any text between them ignored, as OpenSSL writes bundles. It
// returns an error whose message names the problem, fit for the form: no
// PEM block at all, a block that is not a certificate (a private key
// pasted by mistake), or a certificate that does not parse.
func ParseCACerts(bundle string) ([]CACert, error) {
	var certs []CACert
	rest := []byte(bundle)
	for n := 1; ; n++ {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			if strings.Contains(block.Type, "PRIVATE KEY") {
				return nil, fmt.Errorf("Block %d is a private key (%s): paste only the CA's certificates, and keep the key secret.", n, block.Type)
			}
			return nil, fmt.Errorf("Block %d is a %s, not a CERTIFICATE.", n, block.Type)
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("Certificate %d does not parse: %v.", n, err)
		}
		certs = append(certs, CACert{Subject: c.Subject.String(), Issuer: c.Issuer.String(), NotAfter: c.NotAfter})
	}
	if len(certs) == 0 {
		return nil, errors.New("No PEM certificate found: paste one or more blocks from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----.")
	}
	return certs, nil
}
