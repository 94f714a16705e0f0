"""Source text of converted code in the form TF's AutoGraph prints (tf.autograph.to_code):
binary operations fully parenthesized, tuple assignment targets in parentheses, no blank lines."""
import ast

_Unparser = ast._Unparser  # the standard library's unparser, specialised below
_Precedence = ast._Precedence


class _AGUnparser(_Unparser):
    def visit_BinOp(self, node):
        with self.delimit("(", ")"):
            self.set_precedence(_Precedence.ATOM, node.left, node.right)
            self.traverse(node.left)
            self.write(" %s " % self.binop[node.op.__class__.__name__])
            self.traverse(node.right)

    def visit_Assign(self, node):
        self.fill()
        for target in node.targets:
            self.set_precedence(_Precedence.ATOM, target)  # `(x,) = vars_`
            self.traverse(target)
            self.write(" = ")
        self.traverse(node.value)


def unparse(node):
    text = _AGUnparser().visit(node)
    return "\n".join(l for l in text.splitlines() if l.strip()) + "\n"
