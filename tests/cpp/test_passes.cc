// C++ tests of the graph optimization passes (graph/passes): each pass's graph before/after and
// plan results equal to the unoptimized run; the fused elementwise kernel and its block table.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "eager/execute.h"
#include "graph/executor.h"
#include "graph/passes/passes.h"
#include "kernels/cpu/elementwise_blocks.h"
#include "ops/registry.h"

namespace ef {
namespace {

// Sets the process-wide optimizer options for one test and restores them after.
struct OptionsScope {
  OptimizerOptions saved = optimizer_options();
  explicit OptionsScope(const OptimizerOptions& o) { optimizer_options() = o; }
  ~OptionsScope() { optimizer_options() = saved; }
};

OptimizerOptions all_off() {
  OptimizerOptions o;
  o.pruning = o.constant_folding = o.common_subexpression_elimination = o.elementwise_fusion = false;
  return o;
}
OptimizerOptions only(bool OptimizerOptions::*field) {
  OptimizerOptions o = all_off();
  o.*field = true;
  return o;
}

Tensor vec(const std::vector<float>& v) {
  Tensor t = TensorImpl::empty(DType::kFloat32, Shape{static_cast<int64_t>(v.size())});
  std::memcpy(t->raw_data(), v.data(), v.size() * sizeof(float));
  return t;
}

Endpoint op(Graph& g, const char* name, std::vector<Endpoint> in, Attrs a = Attrs()) {
  return {g.add_node(get_op(name), std::move(in), std::move(a), ""), 0};
}
Endpoint cst(Graph& g, Tensor v) { return {g.const_node(v), 0}; }

std::map<std::string, int> type_counts(const Graph& g) {
  std::map<std::string, int> m;
  for (const auto& n : g.nodes()) ++m[n->type()];
  return m;
}

OptimizedGraph run_passes(const Graph& g, const std::vector<Node*>& feeds, const std::vector<Endpoint>& fetches,
                          const OptimizerOptions& o, const std::vector<Node*>& targets = {}) {
  return optimize(g, feeds, fetches, targets, o);
}

// Runs g with the given options; returns the fetched tensors.
std::vector<Tensor> run_with(const Graph& g, const std::vector<Node*>& feeds, const std::vector<Endpoint>& fetches,
                             const std::vector<Tensor>& values, const OptimizerOptions& o) {
  OptionsScope scope(o);
  Plan p(g, feeds, fetches, {});
  return p.run(values);
}

void expect_bitwise_equal(const Tensor& a, const Tensor& b) {
  ASSERT_EQ(a->dtype(), b->dtype());
  ASSERT_EQ(a->shape(), b->shape());
  EXPECT_EQ(std::memcmp(a->raw_data(), b->raw_data(), a->nbytes()), 0);
}

TEST(Prune, RemovesUnusedStatelessNodes) {
  auto g = Graph::create();
  Node* x = g->add_placeholder(DType::kFloat32, Shape{3}, "x");
  Endpoint a = op(*g, "AddV2", {{x, 0}, cst(*g, vec({1, 1, 1}))});
  op(*g, "Mul", {{x, 0}, cst(*g, vec({2, 2, 2}))});  // unused
  EXPECT_EQ(g->nodes().size(), 5u);
  OptimizedGraph og = run_passes(*g, {x}, {a}, only(&OptimizerOptions::pruning));
  EXPECT_EQ(og.graph->nodes().size(), 3u);
  EXPECT_EQ(type_counts(*og.graph).count("Mul"), 0u);
  EXPECT_EQ(og.fetches[0].node->type(), "AddV2");
  EXPECT_EQ(og.feeds[0]->type(), "Placeholder");
  EXPECT_EQ(g->nodes().size(), 5u);  // the traced graph is untouched
}

TEST(Prune, NothingFetchedDoesNoWork) {
  auto g = Graph::create();
  Node* x = g->add_placeholder(DType::kFloat32, Shape{2, 2}, "x");
  Endpoint w = cst(*g, vec({1, 2, 3, 4})->with_shape(Shape{2, 2}));
  Endpoint y = op(*g, "MatMul", {{x, 0}, w});
  op(*g, "Relu", {y});
  OptimizedGraph og = run_passes(*g, {x}, {}, only(&OptimizerOptions::pruning));
  ASSERT_EQ(og.graph->nodes().size(), 1u);  // only the fed placeholder stays
  EXPECT_EQ(og.graph->nodes()[0]->type(), "Placeholder");
}

TEST(Prune, KeepsTargetsAndTheirInputs) {
  auto g = Graph::create();
  Node* x = g->add_placeholder(DType::kFloat32, Shape{3}, "x");
  Endpoint a = op(*g, "Neg", {{x, 0}});
  Endpoint b = op(*g, "Exp", {a});
  OptimizedGraph og = run_passes(*g, {x}, {}, only(&OptimizerOptions::pruning), {b.node});
  EXPECT_EQ(og.graph->nodes().size(), 3u);
  EXPECT_EQ(og.targets[0]->type(), "Exp");
}

TEST(ConstantFolding, FoldsConstSubgraphs) {
  auto g = Graph::create();
  Node* x = g->add_placeholder(DType::kFloat32, Shape{3}, "x");
  Endpoint s = op(*g, "Mul", {cst(*g, vec({1, 2, 3})), cst(*g, vec({2, 2, 2}))});
  Endpoint s2 = op(*g, "Neg", {s});
  Endpoint y = op(*g, "AddV2", {{x, 0}, s2});
  OptimizerOptions o = only(&OptimizerOptions::constant_folding);
  o.pruning = true;
  OptimizedGraph og = run_passes(*g, {x}, {y}, o);
  auto counts = type_counts(*og.graph);
  EXPECT_EQ(counts["Mul"], 0);
  EXPECT_EQ(counts["Neg"], 0);
  EXPECT_EQ(counts["Const"], 1);
  EXPECT_EQ(counts["AddV2"], 1);
  Tensor in = vec({10, 20, 30});
  Tensor folded = run_with(*g, {x}, {y}, {in}, o)[0];
  Tensor plain = run_with(*g, {x}, {y}, {in}, all_off())[0];
  expect_bitwise_equal(folded, plain);
  EXPECT_EQ(folded->data<float>()[2], 24.f);
}

TEST(ConstantFolding, LeavesFailingStatefulAndHugeNodes) {
  auto g = Graph::create();
  Endpoint div = op(*g, "FloorDiv", {cst(*g, TensorImpl::scalar<int32_t>(1)), cst(*g, TensorImpl::scalar<int32_t>(0))});
  Tensor shape = TensorImpl::empty(DType::kInt32, Shape{1});
  shape->data<int32_t>()[0] = 4;
  Attrs ra;
  ra.set("dtype", DType::kFloat32);
  Endpoint rnd = op(*g, "RandomUniform", {cst(*g, shape)}, ra);
  Tensor big = TensorImpl::empty(DType::kInt32, Shape{2});
  big->data<int32_t>()[0] = 2048;
  big->data<int32_t>()[1] = 1024;
  Endpoint fill = op(*g, "Fill", {cst(*g, big), cst(*g, TensorImpl::scalar<float>(1.f))});
  OptimizedGraph og = run_passes(*g, {}, {div, rnd, fill}, only(&OptimizerOptions::constant_folding));
  EXPECT_EQ(og.fetches[0].node->type(), "FloorDiv");  // raises when run, naming the node
  EXPECT_EQ(og.fetches[1].node->type(), "RandomUniform");
  EXPECT_EQ(og.fetches[2].node->type(), "Fill");  // 2M elements
  OptionsScope scope(only(&OptimizerOptions::constant_folding));
  Plan p(*g, {}, {div}, {});
  try {
    p.run({});
    FAIL() << "expected an error";
  } catch (const OpError& e) {
    EXPECT_NE(std::string(e.what()).find("Integer division by zero"), std::string::npos);
  }
}

TEST(CSE, MergesEqualNodesAndConstants) {
  auto g = Graph::create();
  Node* x = g->add_placeholder(DType::kFloat32, Shape{3}, "x");
  Endpoint a = op(*g, "Mul", {{x, 0}, cst(*g, TensorImpl::scalar<float>(2.f))});
  Endpoint b = op(*g, "Mul", {{x, 0}, cst(*g, TensorImpl::scalar<float>(2.f))});  // another Const tensor
  Endpoint c = op(*g, "Exp", {a});
  Endpoint d = op(*g, "Exp", {b});
  Endpoint y = op(*g, "AddV2", {c, d});
  OptimizerOptions o = only(&OptimizerOptions::common_subexpression_elimination);
  OptimizedGraph og = run_passes(*g, {x}, {y}, o);
  auto counts = type_counts(*og.graph);
  EXPECT_EQ(counts["Mul"], 1);
  EXPECT_EQ(counts["Exp"], 1);
  EXPECT_EQ(counts["Const"], 1);
  const Node* add = og.fetches[0].node;
  EXPECT_EQ(add->inputs[0].node, add->inputs[1].node);
  Tensor in = vec({0.5f, -1, 3});
  expect_bitwise_equal(run_with(*g, {x}, {y}, {in}, o)[0], run_with(*g, {x}, {y}, {in}, all_off())[0]);
}

TEST(CSE, KeepsStatefulAndDifferentAttrs) {
  auto g = Graph::create();
  Tensor shape = TensorImpl::empty(DType::kInt32, Shape{1});
  shape->data<int32_t>()[0] = 4;
  Attrs ra;
  ra.set("dtype", DType::kFloat32);
  Endpoint r1 = op(*g, "RandomUniform", {cst(*g, shape)}, ra);
  Endpoint r2 = op(*g, "RandomUniform", {cst(*g, shape)}, ra);
  Tensor m = vec({1, 2, 3, 4})->with_shape(Shape{2, 2});
  Attrs t1, t2;
  t1.set("transpose_a", true);
  t2.set("transpose_a", false);
  Endpoint m1 = op(*g, "MatMul", {cst(*g, m), cst(*g, m)}, t1);
  Endpoint m2 = op(*g, "MatMul", {cst(*g, m), cst(*g, m)}, t2);
  OptimizedGraph og = run_passes(*g, {}, {r1, r2, m1, m2}, only(&OptimizerOptions::common_subexpression_elimination));
  EXPECT_NE(og.fetches[0].node, og.fetches[1].node);
  EXPECT_NE(og.fetches[2].node, og.fetches[3].node);
}

TEST(CSE, AttrEquality) {
  Attrs a, b;
  a.set("x", int64_t(1));
  a.set("f", std::nan(""));
  b.set("f", std::nan(""));
  b.set("x", int64_t(1));
  EXPECT_TRUE(attrs_equal(a, b));  // any order, NaN equals NaN bitwise
  b.set("x", int64_t(2));
  EXPECT_FALSE(attrs_equal(a, b));
  Attrs c, d;
  c.set("z", 0.0);
  d.set("z", -0.0);
  EXPECT_FALSE(attrs_equal(c, d));
  Attrs e, f;
  e.set("value", vec({1, 2}));
  f.set("value", vec({1, 2}));
  EXPECT_TRUE(attrs_equal(e, f));
  f.set("value", vec({1, 3}));
  EXPECT_FALSE(attrs_equal(e, f));
  Attrs h;
  h.set("value", int64_t(1));
  EXPECT_FALSE(attrs_equal(e, h));
}

TEST(Blocks, TableCoversElementwiseOps) {
  EXPECT_TRUE(has_elementwise_block("Exp", DType::kFloat32));
  EXPECT_TRUE(has_elementwise_block("Exp", DType::kFloat64));
  EXPECT_FALSE(has_elementwise_block("Exp", DType::kInt32));
  EXPECT_TRUE(has_elementwise_block("AddV2", DType::kInt32));
  EXPECT_TRUE(has_elementwise_block("Relu", DType::kInt64));
  EXPECT_FALSE(has_elementwise_block("RealDiv", DType::kInt32));  // can fail: not fused
  EXPECT_FALSE(has_elementwise_block("Equal", DType::kFloat32));  // bool result
  EXPECT_FALSE(has_elementwise_block("AddV2", DType::kFloat16));
  EXPECT_EQ(elementwise_block(elementwise_block_id("Mul")).arity, 2);
  EXPECT_EQ(elementwise_block(elementwise_block_id("Tanh")).arity, 1);
}

// Runs the scalar step of `op` for input dtype `t` on registers {a, b}; returns register 2.
ScalarReg run_step(const char* op, DType t, ScalarReg a, ScalarReg b, bool branch = false) {
  const ScalarSteps* s = find_scalar_steps(op, t);
  ScalarReg r[3] = {a, b, {}};
  // The next instruction stops the chain (a value step tail-calls it) and returns itself.
  const ScalarStep stop = [](ScalarReg*, const ScalarInstr* ip) { return ip; };
  const ScalarInstr ins[2] = {{branch ? s->branch : s->value, 0, 1, 2, 1}, {stop, 0, 0, 0, 0}};
  const ScalarInstr* next = ins[0].step(r, ins);
  if (branch) r[2].b = next == ins + 1;
  else EXPECT_EQ(next, ins + 1);
  return r[2];
}

TEST(Blocks, ScalarStepsFollowTheOpsDtypes) {
  ScalarReg a{}, b{};
  a.f32 = 1.f;
  b.f32 = 2.f;
  ASSERT_NE(find_scalar_steps("Less", DType::kFloat32), nullptr);
  EXPECT_TRUE(run_step("Less", DType::kFloat32, a, b).b);
  EXPECT_TRUE(run_step("Less", DType::kFloat32, a, b, /*branch=*/true).b);
  EXPECT_FALSE(run_step("GreaterEqual", DType::kFloat32, a, b, /*branch=*/true).b);
  EXPECT_EQ(run_step("AddV2", DType::kFloat32, a, b).f32, 3.f);
  EXPECT_EQ(find_scalar_steps("AddV2", DType::kFloat32)->branch, nullptr);  // not bool-valued
  EXPECT_EQ(find_scalar_steps("Less", DType::kBool), nullptr);  // TF's Less takes no bools
  EXPECT_EQ(find_scalar_steps("DivNoNan", DType::kInt32), nullptr);  // no integer kernel
  ScalarReg t{}, f{};
  t.b = true;
  f.b = false;
  EXPECT_FALSE(run_step("Equal", DType::kBool, t, f).b);
  EXPECT_FALSE(run_step("LogicalAnd", DType::kBool, t, f).b);
  EXPECT_TRUE(run_step("LogicalOr", DType::kBool, t, f, /*branch=*/true).b);
  EXPECT_FALSE(run_step("LogicalNot", DType::kBool, t, f).b);
  a.i32 = INT32_MAX;
  b.i32 = 1;
  EXPECT_EQ(run_step("AddV2", DType::kInt32, a, b).i32, INT32_MIN);  // wraps, as the kernel does
  a.i32 = -7;
  b.i32 = 2;
  EXPECT_EQ(run_step("FloorDiv", DType::kInt32, a, b).i32, -4);
  // A zero divisor sets the abort flag and ends the program (the plans then raise the kernel's error).
  b.i32 = 0;
  ScalarReg r[4] = {a, b, {}, {}};
  const ScalarInstr ins = {find_scalar_steps("FloorMod", DType::kInt32)->value, 0, 1, 2, 3};
  EXPECT_EQ(ins.step(r, &ins), nullptr);
  EXPECT_TRUE(r[3].b);
}

TEST(Fusion, ChainBecomesOneNode) {
  auto g = Graph::create();
  Node* x = g->add_placeholder(DType::kFloat32, Shape{1000}, "x");
  Endpoint v{x, 0};
  for (int i = 0; i < 20; ++i) {
    v = op(*g, "Mul", {v, cst(*g, TensorImpl::scalar<float>(0.9f))});
    v = op(*g, "AddV2", {v, cst(*g, TensorImpl::scalar<float>(0.1f))});
    v = op(*g, i % 2 ? "Tanh" : "Sin", {v});
  }
  OptimizerOptions o = only(&OptimizerOptions::elementwise_fusion);
  OptimizedGraph og = run_passes(*g, {x}, {v}, o);
  auto counts = type_counts(*og.graph);
  EXPECT_EQ(counts["_FusedElementwise"], 1);
  EXPECT_EQ(counts["Mul"] + counts["AddV2"] + counts["Tanh"] + counts["Sin"], 0);
  const Node* f = og.fetches[0].node;
  EXPECT_EQ(f->attrs.get<std::vector<std::string>>("ops").size(), 60u);
  EXPECT_EQ(f->name, v.node->name);  // the fused node keeps the chain's last name
  std::vector<float> data(1000);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> dist(-3, 3);
  for (float& d : data) d = dist(rng);
  Tensor in = vec(data);
  expect_bitwise_equal(run_with(*g, {x}, {v}, {in}, o)[0], run_with(*g, {x}, {v}, {in}, all_off())[0]);
}

TEST(Fusion, IntermediatesUsedElsewhereAreOutputs) {
  auto g = Graph::create();
  Node* x = g->add_placeholder(DType::kFloat64, Shape{4, 300}, "x");
  Endpoint a = op(*g, "Exp", {{x, 0}});
  Endpoint b = op(*g, "Mul", {a, {x, 0}});
  Endpoint c = op(*g, "Sum", {a, cst(*g, TensorImpl::scalar<int32_t>(1))});  // not elementwise
  Endpoint d = op(*g, "Sub", {b, a});
  Endpoint e = op(*g, "Neg", {d});
  OptimizerOptions o = only(&OptimizerOptions::elementwise_fusion);
  std::vector<Endpoint> fetches{e, c, b};
  OptimizedGraph og = run_passes(*g, {x}, fetches, o);
  auto counts = type_counts(*og.graph);
  EXPECT_EQ(counts["_FusedElementwise"], 1);
  EXPECT_EQ(counts["Sum"], 1);
  EXPECT_EQ(counts["Exp"] + counts["Mul"] + counts["Sub"] + counts["Neg"], 0);
  EXPECT_EQ(og.fetches[0].node, og.fetches[2].node);
  EXPECT_NE(og.fetches[0].index, og.fetches[2].index);
  Tensor in = TensorImpl::empty(DType::kFloat64, Shape{4, 300});
  for (int i = 0; i < 1200; ++i) in->data<double>()[i] = std::sin(i * 0.37);
  auto fused = run_with(*g, {x}, fetches, {in}, o);
  auto plain = run_with(*g, {x}, fetches, {in}, all_off());
  for (int i = 0; i < 3; ++i) expect_bitwise_equal(fused[i], plain[i]);
}

TEST(Fusion, NoCycleThroughOtherGroups) {
  // a, b start chains; c = f(b, a) joins b's chain; d = g(a, b) must not join a's chain,
  // or the two fused nodes would need each other's outputs.
  auto g = Graph::create();
  Node* x = g->add_placeholder(DType::kFloat32, Shape{8}, "x");
  Endpoint a = op(*g, "Exp", {{x, 0}});
  Endpoint b = op(*g, "Sin", {{x, 0}});
  Endpoint c = op(*g, "Sub", {b, a});
  Endpoint d = op(*g, "Mul", {a, b});
  Endpoint y = op(*g, "AddV2", {c, d});
  OptimizerOptions o = only(&OptimizerOptions::elementwise_fusion);
  OptimizedGraph og = run_passes(*g, {x}, {y}, o);  // rebuild throws on a cycle
  Tensor in = vec({-2, -1, -0.5f, 0, 0.5f, 1, 2, 3});
  expect_bitwise_equal(run_with(*g, {x}, {y}, {in}, o)[0], run_with(*g, {x}, {y}, {in}, all_off())[0]);
}

TEST(Fusion, SkipsMixedShapesDtypesAndBroadcasts) {
  auto g = Graph::create();
  Node* x = g->add_placeholder(DType::kFloat32, Shape{3, 4}, "x");
  Node* r = g->add_placeholder(DType::kFloat32, Shape{4}, "r");
  Node* u = g->add_placeholder(DType::kFloat32, Shape{-1}, "u");
  Endpoint a = op(*g, "AddV2", {{x, 0}, {r, 0}});  // row broadcast: not fused
  Endpoint b = op(*g, "Exp", {a});
  Endpoint c = op(*g, "Exp", {{u, 0}});  // unknown shape
  Endpoint d = op(*g, "Neg", {c});
  OptimizedGraph og = run_passes(*g, {x, r, u}, {b, d}, only(&OptimizerOptions::elementwise_fusion));
  EXPECT_EQ(type_counts(*og.graph).count("_FusedElementwise"), 0u);
}

// The registry's elementwise ops of `arity` that fused kernels run for dtype t (blocks exist only
// where the op cannot fail and keeps its operands' dtype).
std::vector<std::string> fusable_ops(int arity, DType t) {
  std::vector<std::string> out;
  for (const OpDef* d : all_ops())
    if (d->elementwise && !d->stateful && !d->variadic() && static_cast<int>(d->inputs.size()) == arity &&
        has_elementwise_block(d->name, t))
      out.push_back(d->name);
  return out;
}

TEST(Blocks, BelongToElementwiseOpsOfTheirArity) {
  int with_blocks = 0;
  for (const OpDef* d : all_ops()) {
    const int id = elementwise_block_id(d->name);
    if (id < 0) continue;
    ++with_blocks;
    EXPECT_TRUE(d->elementwise) << d->name;
    EXPECT_EQ(static_cast<size_t>(elementwise_block(id).arity), d->inputs.size()) << d->name;
  }
  EXPECT_GE(with_blocks, 25);
}

TEST(Fusion, RandomChainsMatchUnfused) {
  const std::vector<std::string> unary_f = fusable_ops(1, DType::kFloat64), binary_f = fusable_ops(2, DType::kFloat64);
  const std::vector<std::string> unary_i = fusable_ops(1, DType::kInt32), binary_i = fusable_ops(2, DType::kInt32);
  ASSERT_GE(unary_f.size(), 18u);
  ASSERT_GE(binary_f.size(), 7u);
  ASSERT_GE(unary_i.size(), 5u);
  ASSERT_GE(binary_i.size(), 7u);
  for (const auto& name : unary_f) EXPECT_TRUE(has_elementwise_block(name, DType::kFloat32)) << name;
  for (const auto& name : binary_f) EXPECT_TRUE(has_elementwise_block(name, DType::kFloat32)) << name;
  auto pick = [](const std::vector<std::string>& ops, uint32_t r) { return ops[r % ops.size()].c_str(); };
  std::mt19937 rng(7);
  int fused_trials = 0;
  for (int trial = 0; trial < 30; ++trial) {
    const bool ints = trial % 3 == 2;
    const DType t = ints ? DType::kInt32 : (trial % 3 ? DType::kFloat64 : DType::kFloat32);
    const int64_t n = std::vector<int64_t>{1, 7, 512, 513, 1000, 3000}[rng() % 6];
    auto g = Graph::create();
    Node* x = g->add_placeholder(t, Shape{n}, "x");
    Node* y = g->add_placeholder(t, Shape{n}, "y");
    std::vector<Endpoint> vals{{x, 0}, {y, 0}};
    for (int i = 0; i < 25; ++i) {
      Endpoint a = vals[rng() % vals.size()];
      if (rng() % 2) {
        vals.push_back(op(*g, ints ? pick(unary_i, rng()) : pick(unary_f, rng()), {a}));
      } else {
        Endpoint b = vals[rng() % vals.size()];
        if (rng() % 4 == 0) {
          Tensor s = TensorImpl::empty(t, Shape{});
          if (ints) *s->data<int32_t>() = static_cast<int32_t>(rng() % 5);
          else if (t == DType::kFloat32) *s->data<float>() = 0.5f;
          else *s->data<double>() = 1.5;
          b = cst(*g, s);
        }
        vals.push_back(op(*g, ints ? pick(binary_i, rng()) : pick(binary_f, rng()),
                          rng() % 2 ? std::vector<Endpoint>{a, b} : std::vector<Endpoint>{b, a}));
      }
    }
    std::vector<Endpoint> fetches{vals.back(), vals[vals.size() / 2]};
    Tensor xin = TensorImpl::empty(t, Shape{n}), yin = TensorImpl::empty(t, Shape{n});
    for (int64_t i = 0; i < n; ++i) {
      if (ints) {
        xin->data<int32_t>()[i] = static_cast<int32_t>(rng() % 200) - 100;
        yin->data<int32_t>()[i] = static_cast<int32_t>(rng());
      } else if (t == DType::kFloat32) {
        xin->data<float>()[i] = std::uniform_real_distribution<float>(-4, 4)(rng);
        yin->data<float>()[i] = std::uniform_real_distribution<float>(-4, 4)(rng);
      } else {
        xin->data<double>()[i] = std::uniform_real_distribution<double>(-4, 4)(rng);
        yin->data<double>()[i] = std::uniform_real_distribution<double>(-4, 4)(rng);
      }
    }
    OptimizerOptions o;  // every pass
    OptimizedGraph og = run_passes(*g, {x, y}, fetches, o);
    fused_trials += type_counts(*og.graph)["_FusedElementwise"] > 0;  // pruning may leave a single op
    auto fused = run_with(*g, {x, y}, fetches, {xin, yin}, o);
    auto plain = run_with(*g, {x, y}, fetches, {xin, yin}, all_off());
    for (size_t i = 0; i < fetches.size(); ++i) expect_bitwise_equal(fused[i], plain[i]);
  }
  EXPECT_GE(fused_trials, 20);
}

TEST(Fusion, LargeTensorsRunInParallelBlocks) {
  // Threads split the eager kernels at other points than the fused blocks, which may move a few
  // elements between Eigen's vector and scalar paths: equal within float rounding.
  auto g = Graph::create();
  const int64_t n = 300001;
  Node* x = g->add_placeholder(DType::kFloat32, Shape{n}, "x");
  Endpoint v{x, 0};
  for (int i = 0; i < 8; ++i) {
    v = op(*g, "Tanh", {op(*g, "Mul", {v, cst(*g, TensorImpl::scalar<float>(1.5f))})});
    v = op(*g, "AddV2", {v, {x, 0}});
  }
  Tensor in = TensorImpl::empty(DType::kFloat32, Shape{n});
  for (int64_t i = 0; i < n; ++i) in->data<float>()[i] = std::sin(static_cast<float>(i) * 0.001f);
  OptimizerOptions o;
  EXPECT_EQ(type_counts(*run_passes(*g, {x}, {v}, o).graph)["_FusedElementwise"], 1);
  Tensor fused = run_with(*g, {x}, {v}, {in}, o)[0];
  Tensor plain = run_with(*g, {x}, {v}, {in}, all_off())[0];
  for (int64_t i = 0; i < n; ++i)
    ASSERT_NEAR(fused->data<float>()[i], plain->data<float>()[i], 1e-5f * (1 + std::abs(plain->data<float>()[i])))
        << i;
}

TEST(Optimize, MinGraphNodesSkipsSmallGraphs) {
  auto g = Graph::create();
  Node* x = g->add_placeholder(DType::kFloat32, Shape{3}, "x");
  Endpoint a = op(*g, "Neg", {{x, 0}});
  op(*g, "Exp", {a});
  OptimizerOptions o;
  o.min_graph_nodes = 10;
  EXPECT_EQ(run_passes(*g, {x}, {a}, o).graph->nodes().size(), 3u);
  o.min_graph_nodes = 0;
  EXPECT_EQ(run_passes(*g, {x}, {a}, o).graph->nodes().size(), 2u);
}

}  // namespace
}  // namespace ef
