package bootcheck

import (
	"regexp"
	"strconv"
	"strings"
)

// A format string (access logs, header values, local replies) is parsed when its owner is built,
// command by command, by SubstitutionFormatParser::parse (source/common/formatter/
// substitution_formatter.cc:252-330 at v1.39.0): every '%' that is not "%%" must open a command
// the regex below takes, which one of the command parsers knows. The first refusal is Envoy's.

// commandPattern is commandWithArgsRegex (substitution_formatter.cc:43): COMMAND, (ARGS), :LENGTH.
// Go's regexp is RE2's syntax and leftmost-first submatch semantics, so ARGS ends where Envoy's does.
var commandPattern = regexp.MustCompile(`^%((?:[A-Z]|[0-9]|_)+)(?:\((.*?)\))?(?::([0-9]+))?%`)

// cmdFlags are CommandSyntaxChecker's flags (substitution_format_utility.h:21-24).
type cmdFlags int

const (
	cmdOnly        cmdFlags = 0
	paramsRequired cmdFlags = 1 << 0
	paramsOptional cmdFlags = 1 << 1
	lengthAllowed  cmdFlags = 1 << 2
)

// formatError is a refusal met while parsing a format. thrown: Envoy throws it (THROW_IF_NOT_OK),
// so a COALESCE operator's wrapping of statuses does not reach it.
type formatError struct {
	msg    string
	thrown bool
}

func thrown(msg string) *formatError { return &formatError{msg: msg, thrown: true} }
func status(msg string) *formatError { return &formatError{msg: msg} }

// builtinCommand is one row of the built-in command tables: its syntax flags, and the check its
// factory makes of the argument (nil: none that can fail).
type builtinCommand struct {
	flags cmdFlags
	arg   func(arg string) *formatError
}

// formatParser parses format strings as one owner does: extra are the commands the owner's
// formatter extensions add (tried before the built-in ones); open means an extension may take
// commands this validator cannot list, so an unknown command is not refused.
type formatParser struct {
	extra map[string]func(arg string) *formatError
	open  bool
}

// parse is SubstitutionFormatParser::parse; it returns the first refusal and how many providers
// (plain text pieces and commands) the format makes, which the stats logger counts.
func (p formatParser) parse(format string) (int, *formatError) {
	providers, text := 0, false
	for pos := 0; pos < len(format); {
		if format[pos] != '%' {
			text = true
			pos++
			continue
		}
		if pos+1 < len(format) && format[pos+1] == '%' {
			text = true
			pos += 2
			continue
		}
		if text {
			providers++
			text = false
		}
		m := commandPattern.FindStringSubmatch(format[pos:])
		if m == nil || !lengthFits(m[3]) {
			return providers, status("Incorrect configuration: " + format + ". Couldn't find valid command at position " + strconv.Itoa(pos))
		}
		if err := p.command(m[1], m[2], m[3] != ""); err != nil {
			return providers, err
		}
		providers++
		pos += len(m[0])
	}
	if text || format == "" {
		providers++
	}
	return providers, nil
}

// lengthFits: RE2 reads :LENGTH into a size_t and fails the match when it does not fit.
func lengthFits(digits string) bool {
	if digits == "" {
		return true
	}
	_, err := strconv.ParseUint(digits, 10, 64)
	return err == nil
}

// command finds the parser of one command: the owner's extensions first, then the built-in ones
// (BuiltInCommandParserFactoryHelper::commandParsers), whose commands do not overlap.
func (p formatParser) command(name, arg string, hasLength bool) *formatError {
	if check, ok := p.extra[name]; ok {
		if check == nil {
			return nil
		}
		return check(arg)
	}
	return builtinParse(name, arg, hasLength, p.open)
}

// builtinParse is the built-in parsers' parse of one command; unknown is refused unless open.
func builtinParse(name, arg string, hasLength, open bool) *formatError {
	if c, ok := builtinCommands[name]; ok {
		if err := verifySyntax(c.flags, name, arg, hasLength); err != nil {
			return err
		}
		if c.arg != nil {
			return c.arg(arg)
		}
		return nil
	}
	if check, ok := extensionCommands[name]; ok {
		return check(arg)
	}
	if open {
		return nil
	}
	return status("Not supported field in StreamInfo: " + name)
}

// verifySyntax is CommandSyntaxChecker::verifySyntax (substitution_format_utility.cc:17-34).
func verifySyntax(flags cmdFlags, name, arg string, hasLength bool) *formatError {
	switch {
	case flags == cmdOnly && (arg != "" || hasLength):
		return thrown(name + " does not take any parameters or length")
	case flags&paramsRequired != 0 && arg == "":
		return thrown(name + " requires parameters")
	case flags&lengthAllowed == 0 && hasLength:
		return thrown(name + " does not allow length to be specified.")
	}
	return nil
}

// Built-in commands of the extensions compiled into the stock build without configuration
// (source/extensions/formatter/{metadata,cel,xfcc_value}): they check their argument themselves.
var extensionCommands = map[string]func(arg string) *formatError{
	"METADATA":   metadataArg,
	"CEL":        func(string) *formatError { return nil }, // CEL's grammar is not modelled
	"TYPED_CEL":  func(string) *formatError { return nil },
	"XFCC_VALUE": xfccArg,
}

// metadataArg: METADATA(TYPE:NAMESPACE:PATH) names a kind of metadata the table knows
// (source/extensions/formatter/metadata/metadata.cc:92-152).
func metadataArg(arg string) *formatError {
	typ, _, _ := strings.Cut(arg, ":")
	switch typ {
	case "DYNAMIC", "CLUSTER", "ROUTE", "UPSTREAM_HOST", "LISTENER", "LISTENER_FILTER_CHAIN", "VIRTUAL_HOST":
		return nil
	}
	return thrown(typ + " is not supported type of metadata")
}

// xfccArg: XFCC_VALUE(key) takes one of the XFCC keys, in any case
// (source/extensions/formatter/xfcc_value/xfcc_value.cc:12-23, 224-232).
func xfccArg(arg string) *formatError {
	if arg == "" {
		return thrown("XFCC_VALUE command requires a subcommand")
	}
	switch key := strings.ToLower(arg); key {
	case "by", "hash", "cert", "chain", "subject", "uri", "dns":
		return nil
	default:
		return thrown("XFCC_VALUE command does not support subcommand: " + key)
	}
}

// headersArg is SubstitutionFormatUtils::parseSubcommandHeaders (substitution_format_utility.cc:
// 96-116): one header, one alternative after '?', each a valid header name once lower-cased.
func headersArg(arg string) *formatError {
	parts := strings.Split(arg, "?")
	if len(parts) > 2 {
		return thrown("More than 1 alternative header specified in token: " + arg)
	}
	for _, h := range parts {
		if !headerNameValid(strings.ToLower(h)) {
			return thrown("Invalid header configuration. Format string contains invalid characters.")
		}
	}
	return nil
}

// headerNameValid is HeaderUtility::headerNameIsValid (source/common/http/header_utility.cc:163):
// an optional leading ':' then RFC 9110 token characters; the empty name passes.
func headerNameValid(name string) bool {
	if strings.HasPrefix(name, ":") {
		name = name[1:]
		if name == "" {
			return false
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && !strings.ContainsRune("!#$%&'*+-.^_`|~", rune(c)) {
			return false
		}
	}
	return true
}
