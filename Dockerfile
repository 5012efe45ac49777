# syntax=docker/dockerfile:1

# Stage 1: third-party front-end files from npm (kept in step with the
# Makefile's `assets` target).
FROM node:20-bookworm-slim AS assets
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
# The patched libraries that go.mod replaces (see its comment).
COPY third_party/ ./third_party/
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
COPY --from=assets /src/static/vendor/ ./static/vendor/
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=1 go build -tags sqlite_fts5 -trimpath -ldflags='-s -w' -o /out/playground ./cmd/playground

# Stage 3: runtime. The database lives in the /data volume (./playground.db,
# relative to the working directory).
#
# The dashboard starts processes on its host, so it listens only on loopback
# (127.0.0.1:8080) and refuses any other address until sign-in exists. Inside
# a container that means sharing the host's network, e.g.
#   docker run --network host -v playground:/data IMAGE
# The image has no Node: stdio servers that need one go in a derived image.
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --user-group --home-dir /data --shell /usr/sbin/nologin playground \
 && mkdir -p /data \
 && chown playground:playground /data
COPY --from=build /out/playground /usr/local/bin/playground
USER playground
WORKDIR /data
VOLUME /data
ENTRYPOINT ["/usr/local/bin/playground"]
CMD ["serve"]
