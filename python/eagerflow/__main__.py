"""`python -m eagerflow`: a short tour of eager execution and the eager timing table."""
from eagerflow._tour import main

main()
