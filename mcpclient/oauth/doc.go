// Package oauth holds the OAuth clients the playground signs requests to a
// remote MCP server with, beyond the authorization code flow of the
// official Go SDK (which mcpclient.OAuthCredentials adapts): grants that
// need no user (client credentials with a secret or a private key JWT, a
// JWT bearer assertion of a workload, enterprise-managed authorization
// through an identity provider) and DPoP sender-constrained tokens. Each
// is an mcpclient.Credentials.
package oauth
