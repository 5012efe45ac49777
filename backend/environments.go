package backend

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Environment is a named set of variable values of a collection, chosen
// when it runs.
type Environment struct {
	ID           int64
	CollectionID int64
	Name         string
	Values       []EnvValue // by name
	// Origins are where its secret values may be sent (see
	// environment_origins.go); none lets stored secrets go nowhere.
	Origins []string
}

// EnvValue is one variable of an environment. A secret's value is stored
// encrypted and never handed out for display: listings leave it empty.
type EnvValue struct {
	Name   string
	Value  string
	Secret bool
}

// EnvironmentStore persists environments. Listings leave secret values
// empty; EnvironmentValues alone returns them, decrypted, to run with.
// A duplicate name within a collection is an EConflict *Error with
// Fields["name"] set.
type EnvironmentStore interface {
	ListEnvironments(ctx context.Context, collectionID int64) ([]Environment, error)
	GetEnvironment(ctx context.Context, collectionID, id int64) (Environment, error)
	// SaveEnvironment creates e (e.ID 0) or replaces its name and values.
	// A secret value left empty keeps the value stored under that name.
	SaveEnvironment(ctx context.Context, e Environment) (Environment, error)
	DeleteEnvironment(ctx context.Context, collectionID, id int64) error
	// EnvironmentValues returns every value of the environment, secrets
	// decrypted.
	EnvironmentValues(ctx context.Context, collectionID, id int64) (map[string]string, error)
}

// Environments returns the collection's environments, by name, secret
// values left empty.
func (s *Collections) Environments(ctx context.Context, collectionID int64) ([]Environment, error) {
	return s.store.ListEnvironments(ctx, collectionID)
}

// Environment returns one environment, secret values left empty.
func (s *Collections) Environment(ctx context.Context, collectionID, id int64) (Environment, error) {
	return s.store.GetEnvironment(ctx, collectionID, id)
}

// SaveEnvironment checks and stores an environment (new when e.ID is 0)
// for someone with the role who. A secret whose value is left empty keeps
// its stored value, unless the save lets the secrets go to an origin they
// could not go to before and who is not an admin: then every stored
// secret must be typed again, so that only someone who knows a secret
// sends it somewhere new. Bad input is an EInvalid *Error whose Fields
// name "name", "values" or "origins".
func (s *Collections) SaveEnvironment(ctx context.Context, e Environment, who Role) (Environment, error) {
	name, err := checkName(e.Name, "name", "environment")
	if err != nil {
		return Environment{}, err
	}
	e.Name = name
	for i := range e.Values {
		e.Values[i].Name = strings.TrimSpace(e.Values[i].Name)
	}
	if err := checkEnvValues(e.Values); err != nil {
		return Environment{}, err
	}
	if e.Origins, err = checkOrigins(e.Origins); err != nil {
		return Environment{}, err
	}
	if e.ID != 0 && who != RoleAdmin {
		if err := s.checkWidening(ctx, e); err != nil {
			return Environment{}, err
		}
	}
	return s.store.SaveEnvironment(ctx, e)
}

// checkWidening refuses a save of e that would keep a stored secret value
// while allowing an origin the stored environment does not.
func (s *Collections) checkWidening(ctx context.Context, e Environment) error {
	prev, err := s.store.GetEnvironment(ctx, e.CollectionID, e.ID)
	if err != nil {
		return err
	}
	if !widens(prev.Origins, e.Origins) {
		return nil
	}
	values, err := s.store.EnvironmentValues(ctx, e.CollectionID, e.ID)
	if err != nil {
		return err
	}
	for _, v := range e.Values {
		if v.Secret && v.Value == "" && values[v.Name] != "" {
			return InvalidField("origins", fmt.Sprintf("Type the secret value of %s again to send it to a new origin: only an admin may send stored secrets somewhere new.", v.Name))
		}
	}
	return nil
}

// checkEnvValues reports a bad or repeated variable name as an EInvalid
// *Error for the field "values".
func checkEnvValues(values []EnvValue) error {
	seen := map[string]bool{}
	for _, v := range values {
		if !variableName().MatchString(v.Name) {
			return InvalidField("values", fmt.Sprintf("%q is not a variable name: use letters, digits, _ and -, starting with a letter or _.", v.Name))
		}
		if seen[v.Name] {
			return InvalidField("values", fmt.Sprintf("%s is given twice.", v.Name))
		}
		seen[v.Name] = true
	}
	return nil
}

// DeleteEnvironment removes an environment.
func (s *Collections) DeleteEnvironment(ctx context.Context, collectionID, id int64) error {
	return s.store.DeleteEnvironment(ctx, collectionID, id)
}

// runVariables are the variables a run starts with: the environment's
// values (none when envID is 0), then extra, which win; with the
// environment (zero when envID is 0) and its secret values.
func (s *Collections) runVariables(ctx context.Context, collectionID, envID int64, extra map[string]string) (vars Variables, env Environment, secrets []string, err error) {
	vars = Variables{}
	if envID != 0 {
		if env, err = s.store.GetEnvironment(ctx, collectionID, envID); err != nil {
			return nil, Environment{}, nil, err
		}
		values, err := s.store.EnvironmentValues(ctx, collectionID, envID)
		if err != nil {
			return nil, Environment{}, nil, err
		}
		for _, v := range env.Values {
			vars[v.Name], _ = json.Marshal(values[v.Name])
			if v.Secret {
				secrets = append(secrets, values[v.Name])
			}
		}
	}
	for k, v := range extra {
		vars[k], _ = json.Marshal(v)
	}
	return vars, env, secrets, nil
}
