#!/bin/sh
# A "VS Code executable" for @vscode/test-electron and @vscode/test-cli on machines that cannot download
# VS Code: it runs the given extension tests in code-server instead (see launcher.ts).
here=$(cd "$(dirname "$0")" && pwd)
exec node --import tsx "$here/launcher.ts" "$@"
