"""Random values equal TensorFlow 2.21's bit for bit: the stateless ops for many seeds, shapes and
dtypes, tf.random.Generator's sequence, the stateful ops after tf.random.set_seed, tf.function
graphs, and Keras 2's seeded initializers and Dropout. The digests were taken from TensorFlow
(regenerate with `TF_USE_LEGACY_KERAS=1 python tests/random_cases.py` under TensorFlow)."""
import warnings

import pytest

import eagerflow as tf
from random_cases import cases, digest

EXPECTED = {
    'uniform/0/0/float16': 'float16[]:cbf2224bb4f40b23',
    'normal/0/0/float16': 'float16[]:636bc09d9985e7be',
    'truncated/0/0/float16': 'float16[]:636bc09d9985e7be',
    'uniform/0/0/float32': 'float32[]:ff4522e90189bdcc',
    'normal/0/0/float32': 'float32[]:de842f68ad1a6883',
    'truncated/0/0/float32': 'float32[]:de842f68ad1a6883',
    'uniform/0/0/float64': 'float64[]:f984d71322d96183',
    'normal/0/0/float64': 'float64[]:30f39845849140bf',
    'truncated/0/0/float64': 'float64[]:30f39845849140bf',
    'uniform/0/1/float16': 'float16[7]:148066d6ad74ba74',
    'normal/0/1/float16': 'float16[7]:746fb498c346bdbf',
    'truncated/0/1/float16': 'float16[7]:d3f571abaf88609e',
    'uniform/0/1/float32': 'float32[7]:4138acce751c844a',
    'normal/0/1/float32': 'float32[7]:086a1cf72be5dfef',
    'truncated/0/1/float32': 'float32[7]:0816c615a635ca18',
    'uniform/0/1/float64': 'float64[7]:8fbb44a68e730bf1',
    'normal/0/1/float64': 'float64[7]:a6194c20e7c2c475',
    'truncated/0/1/float64': 'float64[7]:9c374df3522e77a5',
    'uniform/0/2/float16': 'float16[3, 5]:e67c58b6c1571205',
    'normal/0/2/float16': 'float16[3, 5]:da9f7f5a71e9e6c5',
    'truncated/0/2/float16': 'float16[3, 5]:d4595cc95b3cadf9',
    'uniform/0/2/float32': 'float32[3, 5]:300846accbdeac64',
    'normal/0/2/float32': 'float32[3, 5]:d06a67b7ceaf748e',
    'truncated/0/2/float32': 'float32[3, 5]:6d91ee5514182804',
    'uniform/0/2/float64': 'float64[3, 5]:50392281208c7df7',
    'normal/0/2/float64': 'float64[3, 5]:35c4fa0ec4e20443',
    'truncated/0/2/float64': 'float64[3, 5]:f42a7b4d33f5c0b9',
    'uniform/0/3/float16': 'float16[1001]:64b94433346bfb41',
    'normal/0/3/float16': 'float16[1001]:8df061e6c6f58335',
    'truncated/0/3/float16': 'float16[1001]:dc74b1b32a865399',
    'uniform/0/3/float32': 'float32[1001]:3139b6c2c55b64c4',
    'normal/0/3/float32': 'float32[1001]:e344f429a1ec53c0',
    'truncated/0/3/float32': 'float32[1001]:7f4237fc544208f5',
    'uniform/0/3/float64': 'float64[1001]:0635bf532935af32',
    'normal/0/3/float64': 'float64[1001]:f533702ab569a913',
    'truncated/0/3/float64': 'float64[1001]:d7e814e75051c5ce',
    'int32/0': 'int32[9]:4ef210f0d0f218ef',
    'int64/0': 'int64[9]:61adbf67756520da',
    'full_int32/0': 'int32[9]:855cf15195c46ca2',
    'full_int64/0': 'int64[9]:7362f991b5181381',
    'categorical/0': 'int64[2, 7]:a1341390978a35fd',
    'split/0': 'int32[3, 2]:1cbe8db59625a2f5',
    'fold_in/0': 'int32[2]:e9c28fbc7a6df3e3',
    'uniform/1/0/float16': 'float16[]:fefbb57c8c54fb43',
    'normal/1/0/float16': 'float16[]:887758b47150ca88',
    'truncated/1/0/float16': 'float16[]:887758b47150ca88',
    'uniform/1/0/float32': 'float32[]:8a4061f59f40c6d1',
    'normal/1/0/float32': 'float32[]:f037ebd90f7dfa68',
    'truncated/1/0/float32': 'float32[]:f037ebd90f7dfa68',
    'uniform/1/0/float64': 'float64[]:a5235c5453174d91',
    'normal/1/0/float64': 'float64[]:92c4d41b6bd6a4b8',
    'truncated/1/0/float64': 'float64[]:92c4d41b6bd6a4b8',
    'uniform/1/1/float16': 'float16[7]:8b89b72db02d291d',
    'normal/1/1/float16': 'float16[7]:f8cf08a8848cc989',
    'truncated/1/1/float16': 'float16[7]:63256256ca399250',
    'uniform/1/1/float32': 'float32[7]:2ac6c76a455d2f5b',
    'normal/1/1/float32': 'float32[7]:e625fc604a0d109b',
    'truncated/1/1/float32': 'float32[7]:2a79933ac4e35b5b',
    'uniform/1/1/float64': 'float64[7]:992319a0770f0039',
    'normal/1/1/float64': 'float64[7]:90ddf1bb7744a8a2',
    'truncated/1/1/float64': 'float64[7]:3fdf446b75e2966e',
    'uniform/1/2/float16': 'float16[3, 5]:38d1d1e7033baedd',
    'normal/1/2/float16': 'float16[3, 5]:4652c85e40750b3b',
    'truncated/1/2/float16': 'float16[3, 5]:c9c3a64fdd38b288',
    'uniform/1/2/float32': 'float32[3, 5]:6c585085acfc5a16',
    'normal/1/2/float32': 'float32[3, 5]:f6631a2c9ce268d6',
    'truncated/1/2/float32': 'float32[3, 5]:ea57bdb20a836408',
    'uniform/1/2/float64': 'float64[3, 5]:047027faa3beb920',
    'normal/1/2/float64': 'float64[3, 5]:589958e6be99d3dd',
    'truncated/1/2/float64': 'float64[3, 5]:a74bd84b253c12d6',
    'uniform/1/3/float16': 'float16[1001]:a364ff7ed68783f5',
    'normal/1/3/float16': 'float16[1001]:0e445d1f66810642',
    'truncated/1/3/float16': 'float16[1001]:2b2fd7f63d130e50',
    'uniform/1/3/float32': 'float32[1001]:495289a6aa489b59',
    'normal/1/3/float32': 'float32[1001]:9d7c35427b5c5c98',
    'truncated/1/3/float32': 'float32[1001]:272ca195c771bee1',
    'uniform/1/3/float64': 'float64[1001]:59e1d288d81accc5',
    'normal/1/3/float64': 'float64[1001]:d8b423ed9207ab82',
    'truncated/1/3/float64': 'float64[1001]:e38066c44b9e69f6',
    'int32/1': 'int32[9]:2e3315d5dcbf4e69',
    'int64/1': 'int64[9]:7e74d324456da02d',
    'full_int32/1': 'int32[9]:f280ef4b874c4b01',
    'full_int64/1': 'int64[9]:86516ffcee2d86d7',
    'categorical/1': 'int64[2, 7]:4bbb3985ef220dde',
    'split/1': 'int32[3, 2]:c4f999de284d9872',
    'fold_in/1': 'int32[2]:e8c21f2e71f989cf',
    'uniform/2/0/float16': 'float16[]:031b52ffd3cdb687',
    'normal/2/0/float16': 'float16[]:f26c336f26ff4eb4',
    'truncated/2/0/float16': 'float16[]:f26c336f26ff4eb4',
    'uniform/2/0/float32': 'float32[]:67012028715fe250',
    'normal/2/0/float32': 'float32[]:2f36d8d3b2a1f329',
    'truncated/2/0/float32': 'float32[]:2f36d8d3b2a1f329',
    'uniform/2/0/float64': 'float64[]:28ba7da697280c1a',
    'normal/2/0/float64': 'float64[]:00faef6c80cd1c62',
    'truncated/2/0/float64': 'float64[]:00faef6c80cd1c62',
    'uniform/2/1/float16': 'float16[7]:d856a11dac3e0743',
    'normal/2/1/float16': 'float16[7]:afdc4f709d24fb3f',
    'truncated/2/1/float16': 'float16[7]:9bd0115f134325df',
    'uniform/2/1/float32': 'float32[7]:def7328709169a0d',
    'normal/2/1/float32': 'float32[7]:29c1b9cbe7482c3c',
    'truncated/2/1/float32': 'float32[7]:b5d533f8f7758928',
    'uniform/2/1/float64': 'float64[7]:1a695b86df2a96af',
    'normal/2/1/float64': 'float64[7]:2f6fde729720b125',
    'truncated/2/1/float64': 'float64[7]:761dc1c2c1b715bc',
    'uniform/2/2/float16': 'float16[3, 5]:2a2bde0d67505821',
    'normal/2/2/float16': 'float16[3, 5]:5aa2619d6cfdab0d',
    'truncated/2/2/float16': 'float16[3, 5]:497da46a0a9da9c7',
    'uniform/2/2/float32': 'float32[3, 5]:db41faf7ae715058',
    'normal/2/2/float32': 'float32[3, 5]:e075a95531089b93',
    'truncated/2/2/float32': 'float32[3, 5]:d7d5768b755ff23a',
    'uniform/2/2/float64': 'float64[3, 5]:474427c78671704a',
    'normal/2/2/float64': 'float64[3, 5]:6673ad51384c8c93',
    'truncated/2/2/float64': 'float64[3, 5]:84988434692149e9',
    'uniform/2/3/float16': 'float16[1001]:2df7d72547bc5978',
    'normal/2/3/float16': 'float16[1001]:27e38d4474f0caab',
    'truncated/2/3/float16': 'float16[1001]:654ffeb95da363f7',
    'uniform/2/3/float32': 'float32[1001]:be40bcfc7c1f80d9',
    'normal/2/3/float32': 'float32[1001]:002c17a13dc15671',
    'truncated/2/3/float32': 'float32[1001]:1c659af34df2e1a9',
    'uniform/2/3/float64': 'float64[1001]:02e7ee8aaa98fdec',
    'normal/2/3/float64': 'float64[1001]:d9226a1e07b212a9',
    'truncated/2/3/float64': 'float64[1001]:2c1f07f68a52eb0c',
    'int32/2': 'int32[9]:38c4cab0a39a30a7',
    'int64/2': 'int64[9]:64d9aef4b44325ab',
    'full_int32/2': 'int32[9]:cd89cb0e54a0d651',
    'full_int64/2': 'int64[9]:cfaa5aedd18561c4',
    'categorical/2': 'int64[2, 7]:5390dc993955397e',
    'split/2': 'int32[3, 2]:e55f039775c3128a',
    'fold_in/2': 'int32[2]:e58bd208ccc0923a',
    'uniform/3/0/float16': 'float16[]:cc1fdd7d91dcb421',
    'normal/3/0/float16': 'float16[]:6d39eec870a24eff',
    'truncated/3/0/float16': 'float16[]:6d39eec870a24eff',
    'uniform/3/0/float32': 'float32[]:501cebb497a8a9c4',
    'normal/3/0/float32': 'float32[]:b0ad048a485a2fb6',
    'truncated/3/0/float32': 'float32[]:b0ad048a485a2fb6',
    'uniform/3/0/float64': 'float64[]:51d2c4567a1dde3e',
    'normal/3/0/float64': 'float64[]:fecac46e19c3dfa9',
    'truncated/3/0/float64': 'float64[]:fecac46e19c3dfa9',
    'uniform/3/1/float16': 'float16[7]:5a3a2422f9a37d36',
    'normal/3/1/float16': 'float16[7]:f8296ad0a7e4e414',
    'truncated/3/1/float16': 'float16[7]:b8615e22e2f80049',
    'uniform/3/1/float32': 'float32[7]:8f889cac62f94e0d',
    'normal/3/1/float32': 'float32[7]:dcd80fe203e4a9c7',
    'truncated/3/1/float32': 'float32[7]:8818fd2fa763c4e5',
    'uniform/3/1/float64': 'float64[7]:2a33d4af89fb846c',
    'normal/3/1/float64': 'float64[7]:6ea51a430c005749',
    'truncated/3/1/float64': 'float64[7]:cbfd5d4c14d375c5',
    'uniform/3/2/float16': 'float16[3, 5]:9a85fbbccbba5d52',
    'normal/3/2/float16': 'float16[3, 5]:608f7eb817e01fd9',
    'truncated/3/2/float16': 'float16[3, 5]:2bebf1f3908e5647',
    'uniform/3/2/float32': 'float32[3, 5]:8d4b35b5321083e3',
    'normal/3/2/float32': 'float32[3, 5]:258a457d1f5e9a74',
    'truncated/3/2/float32': 'float32[3, 5]:547f38d6ad91bfb1',
    'uniform/3/2/float64': 'float64[3, 5]:cc8394f1a543d3f7',
    'normal/3/2/float64': 'float64[3, 5]:34064fa122b64af3',
    'truncated/3/2/float64': 'float64[3, 5]:f8500e4ab8211e51',
    'uniform/3/3/float16': 'float16[1001]:a9edd05e6bce8350',
    'normal/3/3/float16': 'float16[1001]:55e90ff50689f1d9',
    'truncated/3/3/float16': 'float16[1001]:5a4af2f983f7b343',
    'uniform/3/3/float32': 'float32[1001]:e78c41e6cfb2b54e',
    'normal/3/3/float32': 'float32[1001]:6a1de799242726cb',
    'truncated/3/3/float32': 'float32[1001]:27fe5c1a8e1af65d',
    'uniform/3/3/float64': 'float64[1001]:b229a7b66fba069d',
    'normal/3/3/float64': 'float64[1001]:cd91d0beb344a375',
    'truncated/3/3/float64': 'float64[1001]:464c481d13694913',
    'int32/3': 'int32[9]:224d5be80245c013',
    'int64/3': 'int64[9]:3b507011f13b6d78',
    'full_int32/3': 'int32[9]:de2473c42113a76e',
    'full_int64/3': 'int64[9]:a729c443392db6e2',
    'categorical/3': 'int64[2, 7]:134f4da47d5e9c27',
    'split/3': 'int32[3, 2]:a61f7bae6cb2dc34',
    'fold_in/3': 'int32[2]:79cf5e31ee14b6f3',
    'seed_int64': 'float32[5]:6d2932909b49c023',
    'uniform_range': 'float32[6]:4fce79f1c0fb5db0',
    'normal_moments': 'float64[4]:a3e21092e13d7127',
    'alg_philox': 'float32[5]:13b6d5183d02bc16',
    'generator': (
        'float32[5]:40b45721b810df0f float64[3]:67e09e690ff68e47 int32[4]:7e65b3f04a967a7f '
        'int64[3]:bcdcddaef4dcb560 float16[6]:a670f09f2633c2ed int64[2, 2]:e07761360fa02405 '
        'int64[3]:5620d35038a91bfd float32[3]:0761934b0082d502 int64[3]:25eb4798d990dd59 '
        'int64[3]:f0869e103fc1b8c3 int64[3]:89b5892225585751 float32[4]:c344c7b0a962544f float32[2, '
        '2]:c5244784d3d63051 int64[3]:da729bf6aa880510'),
    'global_seed': (
        'float32[5]:c45765d30ffafa82 float32[5]:24e4c84f9890189d float64[3]:ba075c89aee0744c '
        'float32[6]:043abcc06b1367f8 int32[4]:ba39ba739ab20105 float32[3]:e0d36a98e28e8597 '
        'float32[3]:3a6d9313d4081887 int32[10]:302f447a5a939aa1 int64[1, 6]:c611d1b452007698 '
        'float32[8]:ee002cfbab514fd2 float32[3]:cac054a54fb7bb68 float32[3]:b29750a5d54d8000'),
    'function': (
        'float32[3]:146734ba827c5ffd float32[2]:8bc74d3e79345962 float32[2]:1ebcd8e0e7281941 '
        'float32[3]:1676544d55d05f61 float32[2]:dedee8daed940945 float32[2]:1ebcd8e0e7281941 '
        'float32[3]:0d2bf2d0a0944a84 int64[2]:8cac5763ca6ad14d float32[3]:e0fefe9254dfb625 '
        'int64[2]:180e670e7c8fc77a int64[3]:419c472f25814d54'),
    'keras': (
        'float32[3, 4]:e64135b2d8fb7cb4 float32[3, 4]:6f4af815b7c2cf35 float32[3, '
        '4]:0f589fb930fef0bd float32[3, 4]:ad229e6fe56651da float32[3, 4]:ed3703542d282527 '
        'float32[3, 4]:cfd78ba0375ac77d float32[5]:3f1eee78308c77e6 float32[5]:5f211466bf83a29b '
        'float32[7]:d73373482e42565c float64[2, 3]:2167e677f85f0905 float32[3, 4]:24899cbd17273a98 '
        'float32[4]:374708fff7719dd5 float32[4, 2]:85a53518657e1884 float32[2]:af5570f5a1810b7a '
        'float32[2, 2]:87ed268fbcea718c'),
    'keras_dropout': (
        'float32[10]:9ac5d19850587926 float32[10]:d7eef6b838fe050b float32[10]:7ea11a7e91445fa8 '
        'float32[10]:9e141f68fca93ca7'),
}

_CASES = cases(tf)


@pytest.fixture(autouse=True)
def _forget_seeds():
    yield
    tf.random.set_seed(None)
    from eagerflow.keras import _random_generator
    _random_generator._SEED_GENERATOR.__dict__.pop("generator", None)


def test_every_case_has_an_expected_digest():
    assert sorted(_CASES) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_values_equal_tensorflow(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = _CASES[name]()
    vs = v if isinstance(v, (list, tuple)) else [v]
    assert " ".join(digest(x) for x in vs) == EXPECTED[name]
