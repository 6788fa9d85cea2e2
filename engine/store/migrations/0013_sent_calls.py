from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0012_live_messages')]

    initial = False

    operations = [
        ops.CreateModel(
            name='SentCall',
            fields=[
                ('id', fields.BigIntField(generated=False, primary_key=True, unique=True, db_index=True)),
                ('message_id', fields.BigIntField()),
                ('created_at', fields.DatetimeField(db_index=True, auto_now=False, auto_now_add=True)),
            ],
            options={'table': 'sent_call', 'app': 'models', 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
