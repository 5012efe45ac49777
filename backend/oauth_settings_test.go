package backend

import "testing"

func TestOAuthSettingsKeepStoredSecretsOnlyForTheSameClient(t *testing.T) {
	old := OAuthSettings{GrantType: OAuthGrantClientCredentials, ClientAuth: OAuthClientSecretBasic, ClientID: "svc", ClientSecret: "s", Issuer: "https://as.example"}
	if got := (OAuthSettings{GrantType: OAuthGrantClientCredentials, ClientID: "svc"}).keeping(old, false); got.ClientSecret != "s" || got.Issuer != old.Issuer {
		t.Errorf("an empty secret for the same client did not keep the stored one and its issuer: %+v", got)
	}
	if got := (OAuthSettings{GrantType: OAuthGrantClientCredentials, ClientID: "svc"}).keeping(old, true); got.ClientSecret != "s" || got.Issuer != "" {
		t.Errorf("an admin's save kept the issuer to confirm anew: %+v", got)
	}
	if got := (OAuthSettings{GrantType: OAuthGrantClientCredentials, ClientID: "svc", ClientSecret: "new"}).keeping(old, false); got.ClientSecret != "new" || got.Issuer != "" {
		t.Errorf("a secret typed anew kept the old issuer: %+v", got)
	}
	if got := (OAuthSettings{GrantType: OAuthGrantClientCredentials, ClientID: "other"}).keeping(old, false); got.ClientSecret != "" || got.Issuer != "" {
		t.Errorf("another client inherited the stored secret or issuer: %+v", got)
	}
	n, err := (OAuthSettings{ClientID: "svc", ClientSecret: "s", PrivateKeyPEM: "x", ClientAuth: OAuthPrivateKeyJWT}).normalized()
	if err != nil || n.GrantType != OAuthGrantAuthorizationCode || n.PrivateKeyPEM != "" || n.ClientAuth != "" || n.ClientSecret != "s" {
		t.Errorf("a browser sign-in's settings: %+v %v; want the key and the client authentication dropped", n, err)
	}
}
