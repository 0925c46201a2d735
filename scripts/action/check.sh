#!/usr/bin/env bash
# The GitHub Action's check step: run `mcp-contract check` with the action's inputs (and, with
# can-i-deploy-to, `mcp-contract can-i-deploy` on the same target), write the job summary (the
# github report does), keep one sticky pull-request comment updated, and set the step outputs.
# Exits with check's own exit code, or when check passed, can-i-deploy's.
#
# Every input arrives as an environment variable (INPUT_*), set by action.yml, and goes into
# the argument list as one word: nothing here is evaluated, so quotes, $(…), backticks or
# newlines in an input stay text. INPUT_COMMAND is the exception by design: it is the stdio
# server's shell command line, handed to `sh -c` as a single argument.
set -euo pipefail

bin=${MCP_CONTRACT_BIN:-mcp-contract}
[[ -n $bin ]] || bin=mcp-contract
work=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/mcp-contract.XXXXXX")
report_json=$work/report.json
report_md=$work/report.md
report_sarif=$work/report.sarif

output() { printf '%s=%s\n' "$1" "$2" >>"${GITHUB_OUTPUT:-/dev/null}"; }
notice() { printf '::notice::%s\n' "$1"; }
warning() { printf '::warning::%s\n' "$1"; }
fail() {
  printf '::error::%s\n' "$1" >&2
  output result error
  output exit-code 2
  exit 2
}
# Each non-empty line of a multi-line input, as one word.
lines() { printf '%s\n' "$1" | sed -e 's/\r$//' | grep -v '^[[:space:]]*$' || true; }

args=(check --baseline "${INPUT_BASELINE:-mcp.contract.json}")

# The baseline as committed on the pull request's base branch, unless told otherwise.
ref=${INPUT_BASELINE_REF:-}
if [[ -z $ref && -n ${GITHUB_BASE_REF:-} ]]; then
  ref=origin/$GITHUB_BASE_REF
  if ! git rev-parse --verify --quiet "$ref^{commit}" >/dev/null 2>&1; then
    git fetch --no-tags --depth=1 origin "+refs/heads/$GITHUB_BASE_REF:refs/remotes/origin/$GITHUB_BASE_REF" ||
      warning "could not fetch the base branch $GITHUB_BASE_REF; check will say what is missing"
  fi
fi
[[ $ref == none ]] && ref=
[[ -n $ref ]] && args+=(--baseline-ref "$ref")

args+=(--fail-on "${INPUT_FAIL_ON:-breaking}")

# Reports: JSON for the outputs, Markdown for the comment, SARIF when asked, the user's own,
# and last (the --format without an --output goes to stdout) GitHub annotations, which
# also write the job summary.
args+=(--format json --output "$report_json" --format markdown --output "$report_md")
if [[ ${INPUT_UPLOAD_SARIF:-false} == true ]]; then
  args+=(--format sarif --output "$report_sarif")
fi
while IFS= read -r spec; do
  [[ $spec == ?*=?* ]] || fail "formats: expected FORMAT=FILE, got '$spec'"
  args+=(--format "${spec%%=*}" --output "${spec#*=}")
done < <(lines "${INPUT_FORMATS:-}")
args+=(--format github)
while IFS= read -r arg; do
  args+=("$arg")
done < <(lines "${INPUT_ARGS:-}")

# The target: exactly one of command, url, server, against.
given=0
for input in "${INPUT_COMMAND:-}" "${INPUT_URL:-}" "${INPUT_SERVER:-}" "${INPUT_AGAINST:-}"; do
  [[ -n $input ]] && given=$((given + 1))
done
[[ $given -eq 1 ]] || fail "give exactly one of the inputs command, url, server or against (got $given)"
# Kept apart from check's own flags: can-i-deploy runs on the same target.
target=()
if [[ -n ${INPUT_AGAINST:-} ]]; then
  target+=(--against "$INPUT_AGAINST")
elif [[ -n ${INPUT_URL:-} ]]; then
  target+=(--url "$INPUT_URL")
  while IFS= read -r header; do
    target+=(--header "$header")
  done < <(lines "${INPUT_HEADERS:-}")
  # The token travels in the environment, not on a command line others could read.
  [[ -n ${INPUT_BEARER:-} ]] && export MCP_CONTRACT_BEARER=$INPUT_BEARER
elif [[ -n ${INPUT_SERVER:-} ]]; then
  target+=(--server "$INPUT_SERVER")
  [[ -n ${INPUT_CONFIG:-} ]] && target+=(--config "$INPUT_CONFIG")
else
  target+=(-- sh -c "$INPUT_COMMAND")
fi
args+=("${target[@]}")

# Break-glass by label: the run passes, and says loudly what it let through.
if [[ ${SKIP_LABELLED:-false} == true ]]; then
  export MCP_CONTRACT_ALLOW_BREAKING=1
  export MCP_CONTRACT_ALLOW_BREAKING_REASON="pull request #${PR_NUMBER:-?} is labelled '${INPUT_SKIP_LABEL:-}'"
  notice "break-glass: the label '${INPUT_SKIP_LABEL:-}' lets breaking changes through; the report still lists them"
fi

set +e
"$bin" "${args[@]}"
code=$?
set -e

# Outputs, from the JSON report (its shape is documented and stable; jq when present).
field() {
  [[ -s $report_json ]] || return 0
  if command -v jq >/dev/null 2>&1; then
    jq -r "$1 // empty" "$report_json" 2>/dev/null || true
  else
    case $1 in
      .result) sed -n 's/^  "result": "\([a-z]*\)",\{0,1\}$/\1/p' "$report_json" ;;
      .requiredBump) sed -n 's/^  "requiredBump": "\([a-z]*\)",\{0,1\}$/\1/p' "$report_json" ;;
      .changeLevel) sed -n 's/^  "changeLevel": "\([a-z]*\)",\{0,1\}$/\1/p' "$report_json" ;;
      .summary.*) sed -n "/^  \"summary\": {/,/^  }/s/^    \"${1#.summary.}\": \([0-9]*\).*/\1/p" "$report_json" ;;
    esac | head -n 1
  fi
}
result=$(field .result)
if [[ $code -ge 2 || -z $result ]]; then result=error; fi
output result "$result"
output required-bump "$(field .requiredBump)"
output change-level "$(field .changeLevel)"
output breaking "$(field .summary.breaking)"
output minor "$(field .summary.minor)"
output patch "$(field .summary.patch)"
output exit-code "$code"
[[ -s $report_json ]] && output report "$report_json"
[[ -s $report_sarif ]] && output sarif-file "$report_sarif"

# can-i-deploy-to: every consumer deployed in that environment, judged on the same target
# (the schema, and with a live server the replay of its recorded calls).
deploy_md=$work/can-i-deploy.md
deploy_code=
if [[ -n ${INPUT_CAN_I_DEPLOY_TO:-} ]]; then
  deploy=(can-i-deploy --to "$INPUT_CAN_I_DEPLOY_TO" --consumers "${INPUT_CONSUMERS:-contracts/consumers}"
    --baseline "${INPUT_BASELINE:-mcp.contract.json}" --format markdown --output "$deploy_md" --format github "${target[@]}")
  set +e
  "$bin" "${deploy[@]}"
  deploy_code=$?
  set -e
  case $deploy_code in
    0) output can-i-deploy yes ;;
    1) output can-i-deploy no ;;
    *) output can-i-deploy error ;;
  esac
  output can-i-deploy-exit-code "$deploy_code"
fi

# One sticky comment per pull request (and comment-id), created once, then edited.
sticky_comment() {
  [[ ${INPUT_COMMENT:-true} == true && -n ${PR_NUMBER:-} ]] || return 0
  if [[ -n ${PR_HEAD_REPO:-} && -n ${GITHUB_REPOSITORY:-} && $PR_HEAD_REPO != "$GITHUB_REPOSITORY" ]]; then
    notice "pull request from a fork: its token cannot comment, so the report is in the job summary only"
    return 0
  fi
  if ! command -v gh >/dev/null 2>&1; then
    notice "the gh CLI is not installed on this runner: the report is in the job summary only"
    return 0
  fi
  local marker body id
  marker="<!-- mcp-contract comment: ${INPUT_COMMENT_ID:-default} -->"
  body=$work/comment.md
  {
    printf '%s\n' "$marker"
    if [[ -s $report_md ]]; then
      cat "$report_md"
    else
      printf '**mcp-contract check** could not produce a report (exit code %s); see the job log.\n' "$code"
    fi
    if [[ -s $deploy_md ]]; then
      printf '\n'
      cat "$deploy_md"
    fi
    if [[ ${SKIP_LABELLED:-false} == true ]]; then
      # shellcheck disable=SC2016 # the backticks are Markdown
      printf '\n> Break-glass: the label `%s` lets these changes through.\n' "${INPUT_SKIP_LABEL:-}"
    fi
  } >"$body"
  id=$(MARKER=$marker gh api --paginate "repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" \
    --jq '.[] | select(.body | startswith(env.MARKER)) | .id' 2>/dev/null | head -n 1) || id=
  if [[ -n $id ]]; then
    gh api --silent -X PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$id" -F "body=@$body"
  else
    gh api --silent -X POST "repos/$GITHUB_REPOSITORY/issues/$PR_NUMBER/comments" -F "body=@$body"
  fi
}
if ! sticky_comment; then
  warning "could not write the pull-request comment (the token needs pull-requests: write): the report is in the job summary"
fi

# check's verdict first; when it passed, can-i-deploy's.
if [[ $code -eq 0 && -n $deploy_code ]]; then code=$deploy_code; fi
exit "$code"
