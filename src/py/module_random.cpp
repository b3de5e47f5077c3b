// py/module_random.cpp: `_random.MT`, the Mersenne Twister core of Python's `random` module,
// bit for bit as CPython 3.11's Modules/_randommodule.c (MT19937, init_by_array, genrand_res53),
// and `_random.sha512`, the digest random.seed(str) mixes into the seed.
//
// What it is: an object with seed(n) (an int, its |n| as 32-bit words into init_by_array; None:
// the clock and the process id), random() (53-bit float), getrandbits(k) (an int of k bits,
// 32-bit words least significant first), getstate()/setstate() (625 ints). src/py/python/random.py
// builds Random, seed(str), randrange, choice, shuffle, sample, choices, gauss, ... over it in
// Python, as CPython's Lib/random.py builds them over _random.Random.
// What it is not: os.urandom seeding (an unseeded generator is seeded from the clock), or
// SystemRandom.
#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "py/bytes.h"
#include "py/exceptions.h"
#include "py/interpreter.h"
#include "py/ints.h"
#include "py/signature.h"

namespace attn::py {

namespace {

const char kMtTag = 0;

constexpr int N = 624, M = 397;
constexpr uint32_t kMatrixA = 0x9908b0dfU, kUpper = 0x80000000U, kLower = 0x7fffffffU;

struct MtObject : InstanceObj {
  std::array<uint32_t, N> mt{};
  int index = N + 1;

  void init_genrand(uint32_t s) {
    mt[0] = s;
    for (int i = 1; i < N; i++) mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + static_cast<uint32_t>(i);
    index = N;
  }

  void init_by_array(const std::vector<uint32_t>& key) {
    init_genrand(19650218U);
    size_t i = 1, j = 0;
    const size_t len = key.size();
    for (size_t k = (static_cast<size_t>(N) > len ? static_cast<size_t>(N) : len); k; k--) {
      mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + static_cast<uint32_t>(j);
      i++;
      j++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
      if (j >= len) j = 0;
    }
    for (size_t k = N - 1; k; k--) {
      mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - static_cast<uint32_t>(i);
      i++;
      if (i >= N) {
        mt[0] = mt[N - 1];
        i = 1;
      }
    }
    mt[0] = 0x80000000U;
  }

  uint32_t next() {
    static const uint32_t mag01[2] = {0, kMatrixA};
    if (index >= N) {
      int kk = 0;
      for (; kk < N - M; kk++) {
        uint32_t y = (mt[kk] & kUpper) | (mt[kk + 1] & kLower);
        mt[kk] = mt[kk + M] ^ (y >> 1) ^ mag01[y & 1U];
      }
      for (; kk < N - 1; kk++) {
        uint32_t y = (mt[kk] & kUpper) | (mt[kk + 1] & kLower);
        mt[kk] = mt[kk + (M - N)] ^ (y >> 1) ^ mag01[y & 1U];
      }
      uint32_t y = (mt[N - 1] & kUpper) | (mt[0] & kLower);
      mt[N - 1] = mt[M - 1] ^ (y >> 1) ^ mag01[y & 1U];
      index = 0;
    }
    uint32_t y = mt[index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
  }

  double random() {
    uint32_t a = next() >> 5, b = next() >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
  }
};

MtObject& mt_of(const Value& v) {
  auto* o = native_cast<MtObject>(v, &kMtTag);
  if (!o) throw TypeError("expected a _random.MT object");
  return *o;
}

// random_seed: |n| as 32-bit words, least significant first ([0] for 0).
void seed(MtObject& g, const Value& n) {
  if (n.is_none()) {
    auto now = static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
    g.init_by_array({static_cast<uint32_t>(now), static_cast<uint32_t>(now >> 32), static_cast<uint32_t>(getpid())});
    return;
  }
  if (!is_int(n)) throw TypeError("attn's _random.MT.seed() takes an int or None");
  BigInt v = big_of(n).abs();
  std::vector<uint32_t> key;
  const BigInt mask = BigInt::from_uint64(0xffffffffULL);
  while (!v.is_zero()) {
    key.push_back(static_cast<uint32_t>(bit_and(v, mask).to_uint64()));
    v = v.shifted_right(32);
  }
  if (key.empty()) key.push_back(0);
  g.init_by_array(key);
}

Value getrandbits(MtObject& g, int64_t k) {
  if (k < 0) throw ValueError("number of bits must be non-negative");
  if (k == 0) return Value::integer(0);
  if (k <= 32) return Value::integer(static_cast<int64_t>(g.next() >> (32 - k)));
  if (k > 1000000) throw OverflowError("attn's getrandbits() takes at most 1,000,000 bits");
  BigInt out;
  for (int64_t shift = 0; k > 0; k -= 32, shift += 32) {
    uint32_t r = g.next();
    if (k < 32) r >>= (32 - k);
    out = bit_or(out, BigInt::from_uint64(r).shifted_left(static_cast<uint64_t>(shift)));
  }
  return Value::integer(out);
}

Value getstate(const MtObject& g) {
  std::vector<Value> items;
  for (uint32_t w : g.mt) items.push_back(Value::integer(static_cast<int64_t>(w)));
  items.push_back(Value::integer(g.index));
  return Value::tuple(std::move(items));
}

void setstate(Interpreter& in, MtObject& g, const Value& state) {
  std::vector<Value> items = in.iterate(state);
  if (items.size() != N + 1) throw ValueError("state vector is the wrong size");
  for (int i = 0; i < N; i++) g.mt[i] = static_cast<uint32_t>(to_int(items[i], "state") & 0xffffffffLL);
  int64_t index = to_int(items[N], "state");
  if (index < 0 || index > N) throw ValueError("invalid state");
  g.index = static_cast<int>(index);
}

std::optional<Value> mt_getattr(Interpreter&, const Value& self, const std::string& name) {
  if (name == "seed")
    return builtin("MT.seed", [self](Interpreter&, CallArgs& a) {
      seed(mt_of(self), a.pos.empty() ? Value::none() : a.pos[0]);
      return Value::none();
    });
  if (name == "random") return builtin("MT.random", [self](Interpreter&, CallArgs&) { return Value::number(mt_of(self).random()); });
  if (name == "getrandbits")
    return builtin("MT.getrandbits", [self](Interpreter&, CallArgs& a) { return getrandbits(mt_of(self), to_int(arg(a, 0, "k"), "k")); });
  if (name == "getstate") return builtin("MT.getstate", [self](Interpreter&, CallArgs&) { return getstate(mt_of(self)); });
  if (name == "setstate")
    return builtin("MT.setstate", [self](Interpreter& in, CallArgs& a) {
      setstate(in, mt_of(self), arg(a, 0, "state"));
      return Value::none();
    });
  return std::nullopt;
}

const ClassPtr& mt_class() {
  static const ClassPtr c = [] {
    ClassPtr cls = make_native_class("MT", "_attn_random");
    cls->native_tag = &kMtTag;
    cls->slots.make = [](Interpreter&, const ClassPtr& made, CallArgs&) {
      auto o = std::make_shared<MtObject>();
      o->cls = made;
      seed(*o, Value::none());
      return Value::of_instance(std::move(o));
    };
    cls->slots.init = [](Interpreter&, const Value&, CallArgs&) {};
    cls->slots.getattr = mt_getattr;
    return cls;
  }();
  return c;
}

// ---- SHA-512 (FIPS 180-4), for random.seed(str): CPython mixes the string's digest into the seed ----

constexpr uint64_t kK[80] = {
    0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL, 0x3956c25bf348b538ULL,
    0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL, 0xd807aa98a3030242ULL, 0x12835b0145706fbeULL,
    0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL, 0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL,
    0xc19bf174cf692694ULL, 0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
    0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL, 0x983e5152ee66dfabULL,
    0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL, 0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL,
    0x06ca6351e003826fULL, 0x142929670a0e6e70ULL, 0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL,
    0x53380d139d95b3dfULL, 0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
    0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL, 0xd192e819d6ef5218ULL,
    0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL, 0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL,
    0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL, 0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL,
    0x682e6ff3d6b2b8a3ULL, 0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
    0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL, 0xca273eceea26619cULL,
    0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL, 0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL,
    0x113f9804bef90daeULL, 0x1b710b35131c471bULL, 0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL,
    0x431d67c49c100d4cULL, 0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL};

uint64_t rotr(uint64_t x, int n) { return (x >> n) | (x << (64 - n)); }

void sha512_block(std::array<uint64_t, 8>& h, const unsigned char* p) {
  uint64_t w[80];
  for (int t = 0; t < 16; t++) {
    w[t] = 0;
    for (int b = 0; b < 8; b++) w[t] = (w[t] << 8) | p[t * 8 + b];
  }
  for (int t = 16; t < 80; t++) {
    uint64_t s0 = rotr(w[t - 15], 1) ^ rotr(w[t - 15], 8) ^ (w[t - 15] >> 7);
    uint64_t s1 = rotr(w[t - 2], 19) ^ rotr(w[t - 2], 61) ^ (w[t - 2] >> 6);
    w[t] = w[t - 16] + s0 + w[t - 7] + s1;
  }
  uint64_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (int t = 0; t < 80; t++) {
    uint64_t t1 = hh + (rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41)) + ((e & f) ^ (~e & g)) + kK[t] + w[t];
    uint64_t t2 = (rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39)) + ((a & b) ^ (a & c) ^ (b & c));
    hh = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
}

std::string sha512(const std::string& data) {
  std::array<uint64_t, 8> h = {0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
                               0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL};
  std::string m = data;
  m.push_back(static_cast<char>(0x80));
  while (m.size() % 128 != 112) m.push_back('\0');
  for (int b = 0; b < 8; b++) m.push_back('\0');   // the high 64 bits of the 128-bit length
  const uint64_t bits = static_cast<uint64_t>(data.size()) * 8;
  for (int b = 7; b >= 0; b--) m.push_back(static_cast<char>((bits >> (b * 8)) & 0xff));
  for (size_t off = 0; off < m.size(); off += 128) sha512_block(h, reinterpret_cast<const unsigned char*>(m.data() + off));
  std::string out;
  for (uint64_t x : h)
    for (int b = 7; b >= 0; b--) out.push_back(static_cast<char>((x >> (b * 8)) & 0xff));
  return out;
}

// int.from_bytes(text + sha512(text).digest(), 'big'): the seed of random.seed(str or bytes), text
// the str's UTF-8 or the bytes.
Value str_seed(const std::string& text) {
  const std::string bytes = text + sha512(text);
  BigInt out;
  for (unsigned char c : bytes) out = bit_or(out.shifted_left(8), BigInt::from_uint64(c));
  return Value::integer(out);
}

}  // namespace

void add_random_core(Interpreter& in) {
  in.add_module("_attn_random", [](Interpreter&) {
    auto ns = std::make_shared<NamespaceObj>();
    ns->names["MT"] = Value::of_class(mt_class());
    ns->names["str_seed"] = builtin("_random.str_seed", [](Interpreter&, CallArgs& a) {
      Value s = arg(a, 0, "text");   // a str (its UTF-8), a bytes or a bytearray
      if (s.kind == Value::Str) return str_seed(s.s);
      if (const std::string* data = bytes_data(s)) return str_seed(*data);
      throw TypeError("str_seed takes a str, bytes or bytearray");
    });
    ns->names["bit_length"] = builtin("_random.bit_length", [](Interpreter&, CallArgs& a) {   // int.bit_length()
      Value n = arg(a, 0, "n");
      if (!is_int(n)) throw TypeError("bit_length takes an int");
      return Value::integer(static_cast<int64_t>(big_of(n).bit_length()));
    });
    return module_value("_attn_random", ns);
  });
}

}  // namespace attn::py
