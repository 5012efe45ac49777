package backend

import "testing"

func TestOAuthSettingsKeepStoredSecretsOnlyForTheSameClient(t *testing.T) {
	old := OAuthSettings{GrantType: OAuthGrantClientCredentials, ClientAuth: OAuthClientSecretBasic, ClientID: "svc", ClientSecret: "s"}
	if got := (OAuthSettings{GrantType: OAuthGrantClientCredentials, ClientID: "svc"}).keeping(old); got.ClientSecret != "s" {
		t.Errorf("an empty secret for the same client did not keep the stored one: %+v", got)
	}
	if got := (OAuthSettings{GrantType: OAuthGrantClientCredentials, ClientID: "other"}).keeping(old); got.ClientSecret != "" {
		t.Errorf("another client inherited the stored secret: %+v", got)
	}
	n, err := (OAuthSettings{ClientID: "svc", ClientSecret: "s", PrivateKeyPEM: "x", ClientAuth: OAuthPrivateKeyJWT}).normalized()
	if err != nil || n.GrantType != OAuthGrantAuthorizationCode || n.PrivateKeyPEM != "" || n.ClientAuth != "" || n.ClientSecret != "s" {
		t.Errorf("a browser sign-in's settings: %+v %v; want the key and the client authentication dropped", n, err)
	}
}
