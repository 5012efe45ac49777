package oauth

import "testing"

func TestOAuthSettingsKeepStoredSecretsOnlyForTheSameClient(t *testing.T) {
	old := Settings{GrantType: GrantClientCredentials, ClientAuth: ClientSecretBasic, ClientID: "svc", ClientSecret: "s", Issuer: "https://as.example"}
	if got := (Settings{GrantType: GrantClientCredentials, ClientID: "svc"}).keeping(old, false); got.ClientSecret != "s" || got.Issuer != old.Issuer {
		t.Errorf("an empty secret for the same client did not keep the stored one and its issuer: %+v", got)
	}
	if got := (Settings{GrantType: GrantClientCredentials, ClientID: "svc"}).keeping(old, true); got.ClientSecret != "s" || got.Issuer != "" {
		t.Errorf("an admin's save kept the issuer to confirm anew: %+v", got)
	}
	if got := (Settings{GrantType: GrantClientCredentials, ClientID: "svc", ClientSecret: "new"}).keeping(old, false); got.ClientSecret != "new" || got.Issuer != "" {
		t.Errorf("a secret typed anew kept the old issuer: %+v", got)
	}
	if got := (Settings{GrantType: GrantClientCredentials, ClientID: "other"}).keeping(old, false); got.ClientSecret != "" || got.Issuer != "" {
		t.Errorf("another client inherited the stored secret or issuer: %+v", got)
	}
	n, err := (Settings{ClientID: "svc", ClientSecret: "s", PrivateKeyPEM: "x", ClientAuth: PrivateKeyJWT}).normalized()
	if err != nil || n.GrantType != GrantAuthorizationCode || n.PrivateKeyPEM != "" || n.ClientAuth != "" || n.ClientSecret != "s" {
		t.Errorf("a browser sign-in's settings: %+v %v; want the key and the client authentication dropped", n, err)
	}
}
