-- origins is a JSON array of the places an environment's secret values
-- may be sent: origins such as "https://mcp.example.com" (an http or sse
-- server's URL, and its proxy's, must both be listed), or "stdio" for the
-- stdio servers an admin registered. See backend/environment_origins.go.
ALTER TABLE environments ADD COLUMN origins TEXT NOT NULL DEFAULT '[]';
