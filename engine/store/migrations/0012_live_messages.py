from tortoise import migrations
from tortoise.migrations import operations as ops
from tortoise.fields.base import OnDelete
from tortoise import fields

class Migration(migrations.Migration):
    dependencies = [('models', '0011_received_updates')]

    initial = False

    operations = [
        ops.CreateModel(
            name='LiveMessage',
            fields=[
                ('id', fields.IntField(generated=True, primary_key=True, unique=True, db_index=True)),
                ('stream', fields.ForeignKeyField('models.Stream', source_field='stream_id', db_constraint=True, to_field='id', related_name='live_messages', on_delete=OnDelete.CASCADE)),
                ('key', fields.CharField(max_length=32)),
                ('chat_id', fields.BigIntField()),
                ('message_id', fields.BigIntField()),
                ('updated_at', fields.DatetimeField(auto_now=True, auto_now_add=False)),
            ],
            options={'table': 'live_messages', 'app': 'models', 'unique_together': (('stream', 'key'),), 'pk_attr': 'id'},
            bases=['Model'],
        ),
    ]
