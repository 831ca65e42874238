#!/bin/sh
# npm's script shell for this project (.npmrc: script-shell): every `npm run` script, and npm's lifecycle
# scripts, run through here. It puts the project's Node (.nvmrc) first on PATH, fetched once by
# required-node.js when the machine's is older, so whatever the script starts (tsx, Jest, nx, the apps,
# Hardhat) runs on it; where the machine's Node will do, PATH is left as it is. Then the script runs as
# npm would run it: `sh -c "<script>"`.
here=$(dirname "$0")
dir=$(node "$here/required-node.js") || {
  echo "npm run: could not find or fetch the Node.js of .nvmrc ($(cat "$here/../../.nvmrc" 2>/dev/null))" >&2
  exit 1
}
PATH="$dir:$PATH"
export PATH
exec sh "$@"
