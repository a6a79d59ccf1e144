// Package i18n is the three languages the lesson speaks (Korean, Chinese, Japanese): the string
// catalog read from content/, messages kept as a key and arguments (Msg) so they are worded in
// whichever language is chosen when they are shown, and the glossary.
package i18n
