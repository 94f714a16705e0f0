"""AST converters: each rewrites one statement or expression form into calls of ag__ operators."""
