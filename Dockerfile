# syntax=docker/dockerfile:1

# Node.js 22, for the front-end build and for the runtime image, where the
# stdio servers people register as `npx ...` run.
FROM node:22.23.5-bookworm-slim AS nodejs

# Stage 1: third-party front-end files from npm (kept in step with the
# Makefile's `assets` target).
FROM nodejs AS assets
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund --ignore-scripts \
 && mkdir -p static/vendor \
 && cp node_modules/htmx.org/dist/htmx.min.js node_modules/htmx-ext-ws/dist/ws.min.js static/vendor/

# Stage 2: the binary. go-sqlite3 needs cgo, so it links against glibc, and
# the sqlite_fts5 tag for history search's full-text index (as the Makefile).
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
COPY --from=assets /src/static/vendor/ ./static/vendor/
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=1 go build -tags sqlite_fts5 -trimpath -ldflags='-s -w' -o /out/playground ./cmd/playground

# Stage 3: runtime. The database and the key that seals its secrets live in
# the /data volume: back up both (README, "Serving a team").
#
# Node.js (node, npm, npx) and uv (uv, uvx) are there so that stdio servers
# registered as `npx ...` or `uvx ...` run; their caches (~/.npm, and
# ~/.cache/uv and the Pythons uvx downloads) live under /data, the
# playground user's home.
#
# The dashboard starts processes on its host: it refuses to listen on
# 0.0.0.0 until an account exists. Create the first admin before the first
# start, e.g.
#   docker run --rm -it -v playground-data:/data IMAGE user add --admin alice
# and tell it the URL people use (PLAYGROUND_BASE_URL, PLAYGROUND_APPS_BASE_URL).
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin playground \
 && mkdir -p /data \
 && chown playground:playground /data
COPY --from=nodejs /usr/local/bin/node /usr/local/bin/node
COPY --from=nodejs /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx
COPY --from=ghcr.io/astral-sh/uv:0.13.8 /uv /uvx /usr/local/bin/
COPY --from=build /out/playground /usr/local/bin/playground
# To give the key as text instead, run with -e PLAYGROUND_KEY_FILE= -e PLAYGROUND_KEY=...
ENV PLAYGROUND_DB=/data/playground.db \
    PLAYGROUND_KEY_FILE=/data/playground.db.key
USER playground
WORKDIR /data
VOLUME /data
EXPOSE 8080 8081
ENTRYPOINT ["/usr/local/bin/playground"]
CMD ["serve", "--addr", "0.0.0.0:8080", "--apps-addr", "0.0.0.0:8081"]
