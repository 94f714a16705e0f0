"""Python code tools for AutoGraph: parsing, analysis, naming, unparsing and loading."""
