#!/usr/bin/env bash
# Writes steps/bootcheck/factories_gen.go: facts about stock Envoy v1.39.0's (commit 8eea328)
# factory registrations that extensions_metadata.yaml does not hold (scripts/gen-envoy-extensions.sh
# writes the rest), read from the Envoy repository at that commit (ENVOY_GIT_DIR, default the mirror):
#
#   - which network filters take protocol options (createProtocolOptionsConfig,
#     source/common/upstream/upstream_impl.cc:92-124): a factory built on
#     Common::FactoryCommon (FactoryBase, ExceptionFreeFactoryBase;
#     source/extensions/filters/network/common/factory_base.h:18-62) has an options proto (its
#     second template argument, else its config proto) and refuses it unless it overrides
#     createProtocolOptionsTyped; any other network or HTTP filter factory has none
#     (ProtocolOptionsFactory::createEmptyProtocolOptionsProto, envoy/server/filter_config.h:157);
#     the script fails if an HTTP filter overrides createEmptyProtocolOptionsProto;
#   - the ProtocolOptionsFactory registrations (source/extensions/upstreams), by name;
#   - the deprecated names LEGACY_REGISTER_FACTORY adds to those three registries (a lookup by
#     name finds them too: Registry::FactoryRegistry::registerFactory, envoy/registry/registry.h:230);
#   - the names of the StreamInfo::FilterState::ObjectFactory registrations in the stock build
#     (set_filter_state looks them up: filters/common/set_filter_state/filter_config.cc:55-59).
#
# A file counts as in the stock build when it is under source/common, in the directory of a target
# source/extensions/extensions_build_config.bzl builds, or in one core code or a built extension
# links (linked below: source/common/upstream/BUILD:505-506, source/common/tcp_proxy/BUILD:97,
# source/extensions/filters/http/set_filter_state/BUILD:19).
set -euo pipefail
cd "$(dirname "$0")/.."
git_dir=${ENVOY_GIT_DIR:-/work/.mirror/wbpcode+envoy/repo}
commit=8eea328
out=steps/bootcheck/factories_gen.go
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
git --git-dir="$git_dir" archive "$commit" source envoy | tar -x -C "$src"
cd "$src"

# The directories of the stock build's extension targets, and each network filter's.
targets=$(sed -n 's|^ *"\([a-z0-9_.]*\)" *: *"//\(source/extensions/[a-z0-9_/]*\):.*|\1 \2|p' source/extensions/extensions_build_config.bzl)
linked="source/extensions/upstreams/http source/extensions/upstreams/tcp source/extensions/upstreams/tcp/generic source/extensions/filters/common/set_filter_state"
built_dir() { awk -v f="$1" -v linked="$linked" 'BEGIN { d = f; sub(/\/[^\/]*$/, "", d); n = split(linked, l, " "); for (i = 1; i <= n; i++) if (l[i] == d) found = 1 }
  $2 == d { found = 1 } END { exit !found }' <<<"$targets"; }

# cc_type turns a C++ proto type (envoy::a::v3::B) into its full name (envoy.a.v3.B).
cc_type() { sed 's/[[:space:]]//g; s/::/./g; s/^\.//' <<<"$1"; }

network_rows=""
while read -r name dir; do
  files=$(ls "$dir"/*.h "$dir"/*.cc 2>/dev/null)
  cls=$(cat $files | perl -0ne 'print "$1\n" while /REGISTER_FACTORY\(\s*(\w+),\s*(?:Envoy::)?(?:Server::Configuration::)?NamedNetworkFilterConfigFactory\b/g' | head -1)
  [ -n "$cls" ] || { echo "no network filter factory registered in $dir" >&2; exit 1; }
  bases=$(cat $files | perl -0ne 'if (/class\s+'"$cls"'(?:\s+final)?\s*:([^{]*)\{/s) { my $b = $1; $b =~ s/\s+/ /g; print $b }')
  if grep -Eq '(FactoryBase|ExceptionFreeFactoryBase|FactoryCommon)<' <<<"$bases"; then
    args=$(perl -ne 'print $1 if /(?:FactoryBase|ExceptionFreeFactoryBase|FactoryCommon)<\s*(.*)>/' <<<"$bases")
    opts=""
    if [[ $args == *,* ]]; then opts=$(cc_type "${args#*,}"); fi
    takes=false
    if grep -q 'createProtocolOptionsTyped' $files; then takes=true; fi
    network_rows+="$name	$opts	$takes"$'\n'
  elif ! grep -q 'NamedNetworkFilterConfigFactory' <<<"$bases"; then
    echo "$dir: $cls derives from $bases" >&2; exit 1
  fi
done < <(awk '$1 ~ /^envoy\.filters\.network\./' <<<"$targets")

# No HTTP filter has protocol options: refuse to write the file if one does.
if grep -rl 'createEmptyProtocolOptionsProto' source/extensions/filters/http >/dev/null; then
  echo "an HTTP filter overrides createEmptyProtocolOptionsProto" >&2; exit 1
fi

# ProtocolOptionsFactory registrations: the factory's name() is its options type's full name.
options_rows=""
for f in $(grep -rlE 'REGISTER_FACTORY\(\s*\w+,\s*Server::Configuration::ProtocolOptionsFactory' source/extensions); do
  built_dir "$f" || continue
  h=${f%.cc}.h
  n=$(cat "$h" "$f" | perl -0ne 'print "$1\n" if /category\(\) const override \{ return "envoy.upstream_options"; \}\s*std::string name\(\) const override \{\s*return "([^"]*)";/s')
  [ -n "$n" ] || { echo "no name for the protocol options factory in $f" >&2; exit 1; }
  options_rows+="$n"$'\n'
done

# Deprecated names in the three registries createProtocolOptionsConfig looks in.
deprecated=$(grep -rl 'LEGACY_REGISTER_FACTORY' source/extensions | while read -r f; do
  built_dir "$f" || continue
  perl -0ne 'while (/LEGACY_REGISTER_FACTORY\(\s*(\w+),\s*(?:Envoy::)?(?:Server::Configuration::)?(NamedNetworkFilterConfigFactory|NamedHttpFilterConfigFactory|ProtocolOptionsFactory),\s*"([^"]*)"\s*\)/g) { print "$3\t$1\t$2\n" }' "$f" |
    while IFS=$'\t' read -r old _ base; do
      canon=$(cat "${f%.cc}.h" "$f" 2>/dev/null | perl -0ne 'print "$1" if /std::string name\(\) const override \{\s*return "([^"]*)";/s')
      if [ -z "$canon" ]; then # FactoryBase(NetworkFilterNames::get().Echo) and the like: the extension named for the directory
        canon=$(awk -v d="${f%/*}" '$2 == d { print $1; exit }' <<<"$targets")
      fi
      printf '%s\t%s\t%s\n' "$old" "$base" "$canon"
    done
done | sed 's/\tNamedNetworkFilterConfigFactory\t/\t1\t/; s/\tNamedHttpFilterConfigFactory\t/\t2\t/; s/\tProtocolOptionsFactory\t/\t3\t/' |
  sort -t$'\t' -k1,1 -k2,2n | awk -F'\t' '!seen[$1]++ { print $1 "\t" $3 }')
# (A name in two registries: createProtocolOptionsConfig finds the network filter's first, then
# the HTTP filter's, then the protocol options factory's; the map keeps the one found first.)

# FilterState object factories: name() returns a literal, a constant or a key() whose value is a literal.
objects=$(grep -rlE 'ObjectFactory' source --include=*.cc --include=*.h | while read -r f; do
  case $f in source/common/*) ;; *) built_dir "$f" || continue ;; esac
  perl -0ne 'print "$1\n" while /REGISTER_FACTORY\(\s*(\w+),\s*(?:Envoy::)?(?:StreamInfo::)?FilterState::ObjectFactory\s*\)/g' "$f" | while read -r cls; do
    body=$(cat "${f%.cc}.h" "$f" 2>/dev/null | perl -0ne 'if (/class\s+'"$cls"'\b.*?name\(\) const override\s*\{(.*?)\}/s || /'"$cls"'::name\(\) const\s*\{(.*?)\}/s) { print $1 }')
    if [[ $body =~ \"([^\"]*)\" ]]; then echo "${BASH_REMATCH[1]}"; continue; fi
    id=$(perl -ne 'print $1 if /(\w+)(?:\(\))?\)?;\s*$/' <<<"$body")
    owner=$(perl -ne 'print $1 if /(\w+)::key\(\)/' <<<"$body")
    if [ "$id" = key ]; then
      v=$(cat "${f%.cc}.h" "$f" 2>/dev/null | perl -0ne 'print $1 if /'"${owner:+$owner::}"'key\(\)\s*\{\s*CONSTRUCT_ON_FIRST_USE\(std::string,\s*"([^"]*)"\)/s')
    else
      v=$(grep -rhE "\b$id\b\s*=\s*(\"|$)" -A1 source --include=*.h --include=*.cc | perl -0ne 'print $1 if /=\s*"([^"]*)"/s')
    fi
    [ -n "$v" ] || { echo "no name for $cls in $f" >&2; exit 1; }
    echo "$v"
  done
done | sort -u)

cd - >/dev/null
{
  echo "// Code generated by scripts/gen-envoy-factories.sh from Envoy $commit; DO NOT EDIT."
  echo
  echo "package bootcheck"
  echo
  echo "// networkOptionsFactories: the network filters whose factory has a protocol options proto (a"
  echo "// Common::FactoryCommon), that proto's type when it is not the filter's config type, and whether"
  echo "// the factory takes it (overrides createProtocolOptionsTyped)."
  echo "var networkOptionsFactories = map[string]struct {"
  echo "	options string"
  echo "	takes   bool"
  echo "}{"
  printf '%s' "$network_rows" | awk -F'\t' 'NF { printf "\t\"%s\": {\"%s\", %s},\n", $1, $2, $3 }'
  echo "}"
  echo
  echo "// protocolOptionsFactories: the ProtocolOptionsFactory registrations, named for their options type."
  echo "var protocolOptionsFactories = []string{"
  printf '%s' "$options_rows" | sort | awk 'NF { printf "\t\"%s\",\n", $1 }'
  echo "}"
  echo
  echo "// deprecatedFactoryNames: the old names of network filter, HTTP filter and protocol options"
  echo "// factories, each with the factory's name."
  echo "var deprecatedFactoryNames = map[string]string{"
  printf '%s\n' "$deprecated" | awk -F'\t' 'NF { printf "\t\"%s\": \"%s\",\n", $1, $2 }'
  echo "}"
  echo
  echo "// filterStateObjectFactories: the names of the FilterState object factories."
  echo "var filterStateObjectFactories = []string{"
  printf '%s\n' "$objects" | awk 'NF { printf "\t\"%s\",\n", $1 }'
  echo "}"
} > "$out"
gofmt -w "$out"
echo "$(grep -c '^	' "$out") rows in $out"
