"""The graph walk: opsets, topological order, the call of one node's reference,
If branches, and the whole-model evaluator evaluate() / evaluate_outputs().

GraphEvaluator holds what every walk over a model shares (the opsets, the
initializers, how a node is called); the layer checker's Checker and
ModelEvaluator (behind evaluate()) differ only in where a node's inputs come
from."""

import numpy as np
from onnx import AttributeProto

from .core import NotEvaluated, ONNX_TO_NP, Node, tensor_to_array
from .registry import OPS


# ----------------------------------------------------------------------------
# Opsets and order
# ----------------------------------------------------------------------------

DEFAULT_OPSET = 22  # the default domain's version when a model does not import it


def model_opsets(model):
    """{domain: version} of a model's opset imports, with "ai.onnx" spelled ""
    (the default domain) and the default domain at DEFAULT_OPSET when the model
    does not import it."""
    opsets = {(o.domain if o.domain != "ai.onnx" else ""): o.version for o in model.opset_import}
    opsets.setdefault("", DEFAULT_OPSET)
    return opsets


def node_opset(opsets, proto):
    """The opset version a node runs under: its domain's (ai.onnx is the default
    domain) in model_opsets(); 1 for a domain the model does not import."""
    return opsets.get(proto.domain if proto.domain != "ai.onnx" else "", 1)


def subgraph_inputs(node):
    """Names a node reads, including those its subgraphs read from outer scopes."""
    names = list(node.input)
    for a in node.attribute:
        graphs = [a.g] if a.type == AttributeProto.GRAPH else list(a.graphs)
        for g in graphs:
            for inner in g.node:
                names.extend(subgraph_inputs(inner))
    return names


def topo_order(graph):
    """The graph's nodes in a topological order, keeping the file's order where it
    already is one (ONNX requires it to be)."""
    produced = {o for nd in graph.node for o in nd.output if o}
    done, order, pending = set(), [], list(graph.node)
    while pending:
        rest = []
        for nd in pending:
            if all(i not in produced or i in done for i in subgraph_inputs(nd)):
                order.append(nd)
                done.update(nd.output)
            else:
                rest.append(nd)
        if len(rest) == len(pending):  # a cycle: keep the file's order
            order.extend(rest)
            break
        pending = rest
    return order


def op_label(proto):
    d = proto.domain
    return proto.op_type if d in ("", "ai.onnx") else "%s.%s" % (d, proto.op_type)


# ----------------------------------------------------------------------------
# Evaluating nodes
# ----------------------------------------------------------------------------

class GraphEvaluator:
    """Evaluates the nodes of a model with the references: the model's opsets
    (model_opsets, node_opset), its initializers, the call of one node, and If
    branches. A subclass decides where a node's inputs come from: it passes a
    lookup (name -> array, or None when unknown) to node() and _call(), and may
    override scope_value() (the lookup inside If branches) and _why_unknown()."""

    def __init__(self, model):
        self.model = model
        self.graph = model.graph
        self.opsets = model_opsets(model)
        self.consts, self.const_errors = {}, {}
        for t in self.graph.initializer:
            try:
                self.consts[t.name] = tensor_to_array(t)
            except NotEvaluated as e:
                self.const_errors[t.name] = str(e)

    def node(self, proto, lookup):
        """The Node of a NodeProto: its attributes and the opset it runs under."""
        return Node(proto, node_opset(self.opsets, proto), self, lookup)

    def _why_unknown(self, name):
        if name in self.const_errors:
            return "input %s unknown (%s)" % (name, self.const_errors[name])
        return "input %s unknown" % name

    def _call(self, n, proto, lookup):
        """Evaluate one node: a list of outputs, or raise NotEvaluated."""
        fn = OPS.get((n.domain, n.op))
        if fn is None:
            raise NotEvaluated("no reference for %s" % op_label(proto))
        args = []
        for name in proto.input:
            if name == "":
                args.append(None)
                continue
            v = lookup(name)
            if v is None:
                raise NotEvaluated(self._why_unknown(name))
            args.append(v)
        with np.errstate(all="ignore"):
            try:
                res = fn(n, *args)
            except NotEvaluated:
                raise
            except Exception as e:
                raise NotEvaluated("reference failed: %s: %s" % (type(e).__name__, e))
        if isinstance(res, np.ndarray) or not isinstance(res, (list, tuple)):
            res = [res]
        return [None if r is None else np.asarray(r) for r in res]

    def scope_value(self, name, local, outer):
        """A value read inside an If branch: the branch's own (its initializers
        and nodes), else the outer scope's."""
        if name in local:
            return local[name]
        return outer(name)

    def run_subgraph(self, graph, outer):
        """Evaluate a subgraph (an If branch) with the outer scope visible."""
        local = {}
        for t in graph.initializer:
            local[t.name] = tensor_to_array(t)

        def lookup(name):
            return self.scope_value(name, local, outer)
        for proto in topo_order(graph):
            n = self.node(proto, lookup)
            try:
                res = self._call(n, proto, lookup)
            except NotEvaluated as e:
                raise NotEvaluated("branch node %s: %s" % (n.name, e))
            for name, r in zip(proto.output, res):
                if name:
                    local[name] = r
        outs = []
        for o in graph.output:
            v = lookup(o.name)
            if v is None:
                raise NotEvaluated("branch output %s unknown" % o.name)
            outs.append(v)
        return outs


# ----------------------------------------------------------------------------
# The whole-model evaluator
# ----------------------------------------------------------------------------

class ModelEvaluator(GraphEvaluator):
    """A whole model evaluated from its graph inputs: every value is the feed,
    else the initializer (a graph input's initializer is its default), else the
    reference's value computed for its producer. After run(), `values` holds
    every value of the main graph by name."""

    def __init__(self, model, feeds):
        GraphEvaluator.__init__(self, model)
        self.values = {}
        self._feed(feeds)

    def _feed(self, feeds):
        declared = {i.name: i for i in self.graph.input}
        unknown = sorted(set(feeds) - set(declared))
        if unknown:
            raise ValueError("feeds %s are not inputs of the graph (inputs: %s)"
                             % (", ".join(unknown), ", ".join(declared)))
        lacking = [name for name in declared if name not in feeds and name not in self.consts
                   and name not in self.const_errors]
        if lacking:
            raise ValueError("graph inputs not fed: %s" % ", ".join(lacking))
        self.values.update(self.consts)
        for name, v in feeds.items():
            a = np.array(v)  # a copy: the caller's array is never a value of the model
            t = declared[name].type
            elem = t.tensor_type.elem_type if t.HasField("tensor_type") else 0
            if elem in ONNX_TO_NP and a.dtype != np.dtype(ONNX_TO_NP[elem]):
                raise ValueError("feed %s is %s, the graph input is %s"
                                 % (name, a.dtype, np.dtype(ONNX_TO_NP[elem])))
            self.values[name] = a

    def lookup(self, name):
        return self.values.get(name)

    def run(self):
        """Evaluate every node of the main graph in topological order."""
        for proto in topo_order(self.graph):
            n = self.node(proto, self.lookup)
            try:
                res = self._call(n, proto, self.lookup)
            except NotEvaluated as e:
                raise NotEvaluated("node %s (%s): %s" % (n.name, op_label(proto), e))
            for name, r in zip(proto.output, res):
                if name:
                    self.values[name] = r
        return self

    def output_list(self):
        """The graph outputs' arrays in the graph's output order."""
        outs = []
        for o in self.graph.output:
            v = self.values.get(o.name)
            if v is None:
                why = self.const_errors.get(o.name, "no node produces it, or its node's reference does not")
                raise NotEvaluated("graph output %s has no value (%s)" % (o.name, why))
            outs.append(np.array(v))  # a copy: never a view of a feed or an initializer
        return outs

    def outputs(self):
        """{graph output name: array}, in the graph's output order."""
        return dict(zip([o.name for o in self.graph.output], self.output_list()))


def evaluate(model, feeds):
    """The graph outputs of `model` (an onnx.ModelProto) on `feeds`, a dict
    {graph input name: numpy array}: {output name: array} in the graph's output
    order. Each node is evaluated with its reference under the model's opset
    for its domain (as the layer checker does); initializers and Constant nodes
    provide the constants, a fed graph input overrides its initializer.

    Raises NotEvaluated (message "node NAME (OP): reason") for a node without
    a reference or a use of an op the references do not cover (e.g. Resize
    antialias, blocked quantization, Dropout in training mode), and when a
    reference fails on its inputs; ValueError when a feed is not a graph
    input, a graph input without initializer is not fed, or a feed's dtype is
    not the input's declared element type."""
    return ModelEvaluator(model, feeds).run().outputs()


def evaluate_outputs(model, feeds):
    """evaluate() as a list, in the order of model.graph.output."""
    return ModelEvaluator(model, feeds).run().output_list()
