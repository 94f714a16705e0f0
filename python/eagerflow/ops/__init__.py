"""Python op wrappers, one module per op family; each calls the C++ execute() dispatch."""
