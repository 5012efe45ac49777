package main

import (
	"encoding/json"
	"io"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// dockerInstruction is one instruction of a Dockerfile: its keyword, upper
// case, and the rest of its (joined) lines.
type dockerInstruction struct {
	Cmd, Args string
}

// readDockerStages reads the Dockerfile at file into its stages, each a
// list of instructions starting with its FROM. Comments go; lines ending
// in a backslash are joined.
func readDockerStages(t *testing.T, file string) [][]dockerInstruction {
	t.Helper()
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var stages [][]dockerInstruction
	var line strings.Builder
	for _, raw := range strings.Split(string(text), "\n") {
		trimmed := strings.TrimSpace(raw)
		if strings.HasPrefix(trimmed, "#") || (trimmed == "" && line.Len() == 0) {
			continue
		}
		if rest, ok := strings.CutSuffix(trimmed, `\`); ok {
			line.WriteString(rest + " ")
			continue
		}
		line.WriteString(trimmed)
		cmd, args, _ := strings.Cut(line.String(), " ")
		line.Reset()
		in := dockerInstruction{Cmd: strings.ToUpper(cmd), Args: strings.TrimSpace(args)}
		if in.Cmd == "FROM" {
			stages = append(stages, nil)
		}
		if len(stages) == 0 {
			t.Fatalf("%s: %s before the first FROM", file, in.Cmd)
		}
		stages[len(stages)-1] = append(stages[len(stages)-1], in)
	}
	return stages
}

// TestDockerfileRuntime checks what can be checked of the image without a
// Docker daemon: the final stage's environment and command are a valid
// `playground serve` configuration listening on every interface on the
// exposed ports, the database and its key file are in the volume, and
// Node.js 22 and uv are installed.
func TestDockerfileRuntime(t *testing.T) {
	stages := readDockerStages(t, "../../Dockerfile")
	final := stages[len(stages)-1]
	all := func(cmd string) []string {
		var args []string
		for _, in := range final {
			if in.Cmd == cmd {
				args = append(args, in.Args)
			}
		}
		return args
	}
	one := func(cmd string) string {
		args := all(cmd)
		if len(args) != 1 {
			t.Fatalf("the final stage has %d %s instructions, want 1: %q", len(args), cmd, args)
		}
		return args[0]
	}

	env := map[string]string{}
	for _, args := range all("ENV") {
		for _, pair := range strings.Fields(args) {
			k, v, ok := strings.Cut(pair, "=")
			if !ok {
				t.Fatalf("ENV %q: want KEY=VALUE pairs", args)
			}
			env[k] = v
		}
	}
	var entrypoint, command []string
	if err := json.Unmarshal([]byte(one("ENTRYPOINT")), &entrypoint); err != nil || len(entrypoint) != 1 || path.Base(entrypoint[0]) != "playground" {
		t.Fatalf("ENTRYPOINT %s: want the playground binary alone (%v)", one("ENTRYPOINT"), err)
	}
	if err := json.Unmarshal([]byte(one("CMD")), &command); err != nil || len(command) == 0 || command[0] != "serve" {
		t.Fatalf("CMD %s: want serve and its flags (%v)", one("CMD"), err)
	}

	cfg, err := parseServeConfig(command[1:], func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatalf("CMD %q with ENV %v: %v", command, env, err)
	}
	// Listening on every interface needs an account, made before the first
	// start (README): then both listeners are allowed.
	if err := cfg.requireAccountsToServeOthers(false); err != nil {
		t.Errorf("with an account: %v", err)
	}
	if cfg.Addr != "0.0.0.0:8080" || cfg.AppsAddr != "0.0.0.0:8081" {
		t.Errorf("serve listens on %s and %s, want 0.0.0.0:8080 and 0.0.0.0:8081", cfg.Addr, cfg.AppsAddr)
	}
	if exposed := strings.Fields(one("EXPOSE")); !slices.Equal(exposed, []string{"8080", "8081"}) {
		t.Errorf("EXPOSE %v, want 8080 8081", exposed)
	}

	var volumes []string
	if v := one("VOLUME"); strings.HasPrefix(v, "[") {
		if err := json.Unmarshal([]byte(v), &volumes); err != nil {
			t.Fatalf("VOLUME %s: %v", v, err)
		}
	} else {
		volumes = strings.Fields(v)
	}
	inVolume := func(file string) bool {
		for _, v := range volumes {
			if strings.HasPrefix(file, strings.TrimSuffix(v, "/")+"/") {
				return true
			}
		}
		return false
	}
	if cfg.DB != env["PLAYGROUND_DB"] || !path.IsAbs(cfg.DB) || !inVolume(cfg.DB) {
		t.Errorf("the database %q (PLAYGROUND_DB %q) is not an absolute path in the volumes %v", cfg.DB, env["PLAYGROUND_DB"], volumes)
	}
	if cfg.Key.File != env["PLAYGROUND_KEY_FILE"] || !path.IsAbs(cfg.Key.File) || !inVolume(cfg.Key.File) {
		t.Errorf("the key file %q (PLAYGROUND_KEY_FILE %q) is not an absolute path in the volumes %v", cfg.Key.File, env["PLAYGROUND_KEY_FILE"], volumes)
	}

	// Node.js: the binary and npm (with its npx) from a pinned node:22 stage.
	nodeStage := ""
	for _, stage := range stages {
		if m := regexp.MustCompile(`^node:22\.\d+\.\d+-\S+ AS (\S+)$`).FindStringSubmatch(stage[0].Args); m != nil {
			nodeStage = m[1]
		}
	}
	if nodeStage == "" {
		t.Fatal("no stage FROM node:22.x.y-... AS NAME")
	}
	copies := strings.Join(all("COPY"), "\n")
	runs := strings.Join(all("RUN"), "\n")
	for _, want := range []string{
		"--from=" + nodeStage + " /usr/local/bin/node /usr/local/bin/node",
		"--from=" + nodeStage + " /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/npm",
	} {
		if !strings.Contains(copies, want) {
			t.Errorf("the final stage lacks COPY %s", want)
		}
	}
	for _, want := range []string{"npm-cli.js /usr/local/bin/npm", "npx-cli.js /usr/local/bin/npx"} {
		if !strings.Contains(runs, want) {
			t.Errorf("the final stage does not link %s", want)
		}
	}
	if !regexp.MustCompile(`(?m)^--from=ghcr\.io/astral-sh/uv:\d+\.\d+\.\d+ /uv /uvx /usr/local/bin/$`).MatchString(copies) {
		t.Errorf("the final stage lacks COPY --from=ghcr.io/astral-sh/uv:X.Y.Z /uv /uvx /usr/local/bin/:\n%s", copies)
	}
}
