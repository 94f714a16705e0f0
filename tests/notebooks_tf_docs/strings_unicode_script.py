"""tf.strings.unicode_script: the ICU script code of each code point."""
import eagerflow as tf

uscript = tf.strings.unicode_script([33464, 1041])
print(uscript.numpy())
chars = tf.strings.unicode_decode(["Göödnight", "😊", "语言"], input_encoding="UTF-8")
print(tf.strings.unicode_script(chars))
print(tf.strings.unicode_script(tf.constant([65, 48, 32, 1575])))
