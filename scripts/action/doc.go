// Package action holds the scripts of perfpages' GitHub Action (action.yml
// at the repository root) and their tests: record.sh, build.sh, comment.sh
// and install.sh run against a scratch repository with a bare remote and a
// fake GitHub API, without network.
package action
