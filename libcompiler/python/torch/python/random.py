# random: the Mersenne Twister (MT19937) and the methods built on it, drawing words in the same
# order as CPython's, so an integer seed gives CPython's exact sequences. Kiln's ints are 64-bit:
# every intermediate product here stays below 2**63, and getrandbits() allows k <= 63.

import math
import time

_N = 624
_M = 397
_MASK32 = 0xFFFFFFFF
_NV_MAGICCONST = 4 * math.exp(-0.5) / math.sqrt(2.0)
_TWOPI = 2.0 * math.pi


def _bit_length(n):
    bits = 0
    while n:
        n >>= 1
        bits += 1
    return bits


class Random:
    def __init__(self, x=None):
        self._mt = [0] * _N
        self._index = _N
        self.gauss_next = None
        self.seed(x)

    # ---- the generator ----

    def _init_genrand(self, s):
        mt = self._mt
        mt[0] = s & _MASK32
        for i in range(1, _N):
            previous = mt[i - 1]
            mt[i] = (1812433253 * (previous ^ (previous >> 30)) + i) & _MASK32
        self._index = _N

    def _init_by_array(self, key):
        self._init_genrand(19650218)
        mt = self._mt
        i = 1
        j = 0
        for _ in range(max(_N, len(key))):
            previous = mt[i - 1]
            mt[i] = ((mt[i] ^ ((previous ^ (previous >> 30)) * 1664525)) + key[j] + j) & _MASK32
            i += 1
            j += 1
            if i >= _N:
                mt[0] = mt[_N - 1]
                i = 1
            if j >= len(key):
                j = 0
        for _ in range(_N - 1):
            previous = mt[i - 1]
            mt[i] = ((mt[i] ^ ((previous ^ (previous >> 30)) * 1566083941)) - i) & _MASK32
            i += 1
            if i >= _N:
                mt[0] = mt[_N - 1]
                i = 1
        mt[0] = 0x80000000

    def _twist(self):
        mt = self._mt
        for k in range(_N):
            y = (mt[k] & 0x80000000) | (mt[(k + 1) % _N] & 0x7FFFFFFF)
            mt[k] = mt[(k + _M) % _N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        self._index = 0

    def _genrand_uint32(self):
        if self._index >= _N:
            self._twist()
        y = self._mt[self._index]
        self._index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    # ---- seeding and state ----

    def seed(self, a=None):
        if a is None:
            a = time.time_ns()
        elif isinstance(a, float):
            a = hash(a)
        elif isinstance(a, str):
            raise NotImplementedError("kiln's random does not support str seeds (CPython hashes them with SHA-512)")
        elif not isinstance(a, int):
            raise TypeError("The only supported seed types are: None,\nint, float, str, bytes, and bytearray.")
        a = abs(a)
        key = []
        while a:
            key.append(a & _MASK32)
            a >>= 32
        self._init_by_array(key or [0])
        self.gauss_next = None

    def getstate(self):
        return 3, tuple(self._mt) + (self._index,), self.gauss_next

    def setstate(self, state):
        version, internal, self.gauss_next = state
        if version != 3 or len(internal) != _N + 1:
            raise ValueError("state with version " + str(version) + " passed to Random.setstate() of version 3")
        self._mt = list(internal[:_N])
        self._index = internal[_N]

    # ---- integers ----

    def getrandbits(self, k):
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k <= 32:
            return self._genrand_uint32() >> (32 - k) if k else 0
        result = 0
        shift = 0
        while k > 0:
            word = self._genrand_uint32()
            if k < 32:
                word >>= 32 - k
            result |= word << shift
            shift += 32
            k -= 32
        return result

    def _randbelow(self, n):
        k = _bit_length(n)
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def randrange(self, start, stop=None, step=1):
        if stop is None:
            if start > 0:
                return self._randbelow(start)
            raise ValueError("empty range for randrange()")
        width = stop - start
        if step == 1:
            if width > 0:
                return start + self._randbelow(width)
            raise ValueError("empty range for randrange() (" + str(start) + ", " + str(stop) + ", " + str(width) + ")")
        if step > 0:
            n = (width + step - 1) // step
        elif step < 0:
            n = (width + step + 1) // step
        else:
            raise ValueError("zero step for randrange()")
        if n <= 0:
            raise ValueError("empty range for randrange()")
        return start + step * self._randbelow(n)

    def randint(self, a, b):
        return self.randrange(a, b + 1)

    # ---- sequences ----

    def choice(self, seq):
        if not len(seq):
            raise IndexError("Cannot choose from an empty sequence")
        return seq[self._randbelow(len(seq))]

    def shuffle(self, x):
        for i in reversed(range(1, len(x))):
            j = self._randbelow(i + 1)
            x[i], x[j] = x[j], x[i]

    def sample(self, population, k):
        if isinstance(population, (set, dict)):
            raise TypeError("Population must be a sequence.  For dicts or sets, use sorted(d).")
        n = len(population)
        if not 0 <= k <= n:
            raise ValueError("Sample larger than population or is negative")
        result = [None] * k
        # CPython's choice between a shrinking pool and rejection from a set of chosen indices.
        setsize = 21
        if k > 5:
            setsize += 4 ** math.ceil(math.log(k * 3, 4))
        if n <= setsize:
            pool = list(population)
            for i in range(k):
                j = self._randbelow(n - i)
                result[i] = pool[j]
                pool[j] = pool[n - i - 1]
        else:
            selected = set()
            for i in range(k):
                j = self._randbelow(n)
                while j in selected:
                    j = self._randbelow(n)
                selected.add(j)
                result[i] = population[j]
        return result

    def choices(self, population, weights=None, *, cum_weights=None, k=1):
        n = len(population)
        if cum_weights is None:
            if weights is None:
                return [population[math.floor(self.random() * n)] for _ in range(k)]
            cum_weights = []
            total = 0
            for weight in weights:
                total += weight
                cum_weights.append(total)
        elif weights is not None:
            raise TypeError("Cannot specify both weights and cumulative weights")
        if len(cum_weights) != n:
            raise ValueError("The number of weights does not match the population")
        total = cum_weights[-1] + 0.0
        result = []
        for _ in range(k):
            target = self.random() * total
            low, high = 0, n - 1
            while low < high:
                middle = (low + high) // 2
                if target < cum_weights[middle]:
                    high = middle
                else:
                    low = middle + 1
            result.append(population[low])
        return result

    # ---- floats ----

    def random(self):
        a = self._genrand_uint32() >> 5
        b = self._genrand_uint32() >> 6
        return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)

    def uniform(self, a, b):
        return a + (b - a) * self.random()

    def normalvariate(self, mu=0.0, sigma=1.0):
        while True:
            u1 = self.random()
            u2 = 1.0 - self.random()
            z = _NV_MAGICCONST * (u1 - 0.5) / u2
            if z * z / 4.0 <= -math.log(u2):
                return mu + z * sigma

    def gauss(self, mu=0.0, sigma=1.0):
        z = self.gauss_next
        self.gauss_next = None
        if z is None:
            angle = self.random() * _TWOPI
            radius = math.sqrt(-2.0 * math.log(1.0 - self.random()))
            z = math.cos(angle) * radius
            self.gauss_next = math.sin(angle) * radius
        return mu + z * sigma

    def expovariate(self, lambd):
        return -math.log(1.0 - self.random()) / lambd


_inst = Random()
seed = _inst.seed
random = _inst.random
uniform = _inst.uniform
randint = _inst.randint
randrange = _inst.randrange
choice = _inst.choice
choices = _inst.choices
shuffle = _inst.shuffle
sample = _inst.sample
getrandbits = _inst.getrandbits
gauss = _inst.gauss
normalvariate = _inst.normalvariate
expovariate = _inst.expovariate
getstate = _inst.getstate
setstate = _inst.setstate
