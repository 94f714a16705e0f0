// Special functions TF has as ops and the C library lacks (or has only thread-unsafe forms of):
// lgamma without the global signgam, digamma, erfinv, the Hurwitz zeta function and polygamma.
// Scalar double or float; NaN outside the domain, as TF's (Eigen's) kernels return.
#pragma once
#include <cmath>
#include <limits>

namespace ef {
namespace special {

template <class S>
constexpr S kNaN = std::numeric_limits<S>::quiet_NaN();
template <class S>
constexpr S kInf = std::numeric_limits<S>::infinity();
template <class S>
constexpr S kPi = S(3.14159265358979323846264338327950288);

// lgamma_r: glibc's lgamma writes the global signgam, a data race between threads.
inline double lgamma(double x) {
  int sign;
  return ::lgamma_r(x, &sign);
}
inline float lgamma(float x) {
  int sign;
  return ::lgammaf_r(x, &sign);
}

// psi(x): reflection for x < 0.5, the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 10, then the
// asymptotic series. Poles (0, -1, ...) give NaN, as TF.
template <class S>
S digamma(S xs) {
  double x = xs, acc = 0;
  if (std::isnan(x)) return xs;
  if (x == -std::numeric_limits<double>::infinity()) return kNaN<S>;
  if (x <= 0 && x == std::floor(x)) return kNaN<S>;
  if (x < 0.5) {  // psi(1 - x) - psi(x) = pi / tan(pi x)
    acc = -kPi<double> / std::tan(kPi<double> * x);
    x = 1 - x;
  }
  for (; x < 10; x += 1) acc -= 1 / x;
  const double r = 1 / (x * x);
  // B2k / (2k) for k = 1..7.
  const double series =
      r * (1.0 / 12 - r * (1.0 / 120 - r * (1.0 / 252 - r * (1.0 / 240 - r * (1.0 / 132 - r * (691.0 / 32760 - r / 12))))));
  return static_cast<S>(acc + std::log(x) - 0.5 / x - series);
}

// erfinv(x): a rational first guess (Giles 2010) refined by Newton steps on erf in double.
template <class S>
S erfinv(S xs) {
  const double x = xs;
  if (std::isnan(x) || x < -1 || x > 1) return kNaN<S>;
  if (x == 1) return kInf<S>;
  if (x == -1) return -kInf<S>;
  double w = -std::log((1 - x) * (1 + x)), p;
  if (w < 5) {
    w -= 2.5;
    p = 2.81022636e-08;
    for (double c : {3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
                     -0.00417768164, 0.246640727, 1.50140941})
      p = c + p * w;
  } else {
    w = std::sqrt(w) - 3;
    p = -0.000200214257;
    for (double c : {0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
                     0.00943887047, 1.00167406, 2.83297682})
      p = c + p * w;
  }
  double y = p * x;
  const double k = 2 / std::sqrt(kPi<double>);
  for (int i = 0; i < 3; ++i) {
    const double d = k * std::exp(-y * y);
    if (d == 0) break;
    y -= (std::erf(y) - x) / d;
  }
  return static_cast<S>(y);
}

// Hurwitz zeta(x, q) = sum_k (k + q)^-x, x > 1: direct sum to a >= 9, then Euler-Maclaurin with
// the Bernoulli numbers' coefficients (2k)! / B2k.
template <class S>
S zeta(S xs, S qs) {
  const double x = xs, q = qs;
  if (std::isnan(x) || std::isnan(q)) return kNaN<S>;
  if (x == 1) return kInf<S>;
  if (x < 1) return kNaN<S>;
  if (q <= 0) {
    if (q == std::floor(q)) return kInf<S>;
    if (x != std::floor(x)) return kNaN<S>;  // q^-x of a negative q is not real
  }
  constexpr double kEps = 1.11022302462515654042e-16;
  static constexpr double kA[] = {12.0,
                                  -720.0,
                                  30240.0,
                                  -1209600.0,
                                  47900160.0,
                                  -1.8924375803183791606e9,
                                  7.47242496e10,
                                  -2.950130727918164224e12,
                                  1.1646782814350067249e14,
                                  -4.5979787224074726105e15,
                                  1.8152105401943546773e17,
                                  -7.1661652561756670113e18};
  double s = std::pow(q, -x), a = q, b = 0;
  int i = 0;
  while (i < 9 || a <= 9) {
    ++i;
    a += 1;
    b = std::pow(a, -x);
    s += b;
    if (std::abs(b / s) < kEps) return static_cast<S>(s);
  }
  const double w = a;
  s += b * w / (x - 1) - 0.5 * b;
  double fac = 1, k = 0;
  for (double coef : kA) {
    fac *= x + k;
    b /= w;
    const double t = fac * b / coef;
    s += t;
    if (std::abs(t / s) < kEps) break;
    k += 1;
    fac *= x + k;
    b /= w;
    k += 1;
  }
  return static_cast<S>(s);
}

// polygamma(n, x) = (-1)^(n+1) n! zeta(n + 1, x) for integers n >= 1, digamma for n = 0.
template <class S>
S polygamma(S ns, S xs) {
  const double n = ns;
  if (std::isnan(n) || std::isnan(static_cast<double>(xs)) || n < 0 || n != std::floor(n)) return kNaN<S>;
  if (n == 0) return digamma(xs);
  const double sign = std::fmod(n, 2) == 0 ? -1 : 1;
  return static_cast<S>(sign * std::exp(lgamma(n + 1)) * zeta<double>(n + 1, xs));
}

}  // namespace special
}  // namespace ef
